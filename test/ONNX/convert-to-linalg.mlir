// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// Unsigned inputs pick unsigned arithmetic, then lose their signedness;
// a broadcast operand is read at 0 along its unit dim.
// CHECK-LABEL: func.func @unsigned_div
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3xi8>, %[[B:.*]]: tensor<1x3xi8>) -> tensor<2x3xi8>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B]] : tensor<2x3xi8>, tensor<1x3xi8>)
// CHECK:           arith.divui
func.func @unsigned_div(%a: tensor<2x3xui8>, %b: tensor<1x3xui8>) -> tensor<2x3xui8> {
  %0 = onnx.node "Div"(%a, %b) {opset = 14 : i64} : (tensor<2x3xui8>, tensor<1x3xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// Clip before opset 11 takes its bounds as attributes, after as inputs.
// CHECK-LABEL: func.func @clip
// CHECK:         arith.maximumf
// CHECK:         arith.minimumf
// CHECK:         tensor.extract
// CHECK:         arith.maximumf
// CHECK-NOT:     arith.minimumf
func.func @clip(%x: tensor<4xf32>, %low: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %none = onnx.none
  %0 = onnx.node "Clip"(%x) {opset = 7 : i64, onnx_attrs = {min = -1.0 : f32, max = 1.0 : f32}} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = onnx.node "Clip"(%x, %low, %none) {opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, none) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Gemm's transposed A is an indexing map of linalg.matmul.
// CHECK-DAG:   #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @gemm_trans_a
// CHECK:         linalg.matmul indexing_maps = [#[[AT]],
func.func @gemm_trans_a(%a: tensor<8x4xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = onnx.node "Gemm"(%a, %b) {opset = 13 : i64, onnx_attrs = {transA = 1 : i64}} : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// MatMul of a vector and a batch of matrices broadcasts the batch.
// CHECK-LABEL: func.func @matmul_vector
// CHECK:         tensor.expand_shape
// CHECK:         linalg.generic
// CHECK:         tensor.collapse_shape {{.*}} into tensor<2x5xf32>
func.func @matmul_vector(%a: tensor<3xf32>, %b: tensor<2x3x5xf32>) -> tensor<2x5xf32> {
  %0 = onnx.node "MatMul"(%a, %b) {opset = 13 : i64} : (tensor<3xf32>, tensor<2x3x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @unknown_attribute(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (Relu, opset 14): attribute 'inplace' is not supported}}
  %0 = onnx.node "Relu"(%x) {opset = 14 : i64, onnx_attrs = {inplace = 1 : i64}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @other_domain(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{node (Gelu, domain 'com.microsoft', opset 1): Kiln's ONNX importer does not convert op type 'Gelu'}}
  %0 = onnx.node "Gelu"(%x) {domain = "com.microsoft", opset = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A reshape that regroups static dims collapses and expands; one whose
// dynamic dim regroups reads the shape at run time.
// CHECK-LABEL: func.func @reshapes
// CHECK:         tensor.collapse_shape
// CHECK:         tensor.expand_shape
// CHECK:         tensor.from_elements
// CHECK:         tensor.reshape
func.func @reshapes(%x: tensor<2x6xf32>, %y: tensor<?x6xf32>, %s: tensor<2xi64>) -> (tensor<3x4xf32>, tensor<?x3xf32>) {
  %shape = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<[3, 4]> : tensor<2xi64>}} : () -> tensor<2xi64>
  %0 = onnx.node "Reshape"(%x, %shape) {opset = 17 : i64} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %1 = onnx.node "Reshape"(%y, %s) {opset = 17 : i64} : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<?x3xf32>
}

// -----

// A negative step reads the elements upwards, then reverses them.
// CHECK-DAG:   #[[REVERSE:.*]] = affine_map<(d0) -> (-d0 + 2)>
// CHECK-LABEL: func.func @slice_backwards
// CHECK:         tensor.extract_slice %{{.*}}[1] [3] [2] : tensor<8xf32> to tensor<3xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[REVERSE]],
func.func @slice_backwards(%x: tensor<8xf32>) -> tensor<3xf32> {
  %starts = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<5> : tensor<1xi64>}} : () -> tensor<1xi64>
  %ends = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<0> : tensor<1xi64>}} : () -> tensor<1xi64>
  %axes = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<0> : tensor<1xi64>}} : () -> tensor<1xi64>
  %steps = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<-2> : tensor<1xi64>}} : () -> tensor<1xi64>
  %0 = onnx.node "Slice"(%x, %starts, %ends, %axes, %steps) {opset = 17 : i64} : (tensor<8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Convolutions: padding as tensor.pad, groups as linalg's grouped NCHW
// form, one input channel per group as the depthwise form, 1-D as 2-D of
// height 1.
// CHECK-LABEL: func.func @convolutions
// CHECK:         tensor.pad
// CHECK:         linalg.conv_2d_ngchw_gfchw
// CHECK:         linalg.depthwise_conv_2d_nchw_chw
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3]]
// CHECK:         linalg.conv_2d_nchw_fchw
func.func @convolutions(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %d: tensor<4x1x3x3xf32>, %v: tensor<1x4x10xf32>, %k: tensor<2x4x3xf32>) -> (tensor<1x6x8x8xf32>, tensor<1x4x6x6xf32>, tensor<1x2x8xf32>) {
  %0 = onnx.node "Conv"(%x, %w) {opset = 17 : i64, onnx_attrs = {group = 2 : i64, pads = [1, 1, 1, 1]}} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x8x8xf32>
  %1 = onnx.node "Conv"(%x, %d) {opset = 17 : i64, onnx_attrs = {group = 4 : i64}} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = onnx.node "Conv"(%v, %k) {opset = 17 : i64} : (tensor<1x4x10xf32>, tensor<2x4x3xf32>) -> tensor<1x2x8xf32>
  return %0, %1, %2 : tensor<1x6x8x8xf32>, tensor<1x4x6x6xf32>, tensor<1x2x8xf32>
}

// -----

func.func @training_dropout(%x: tensor<4xf32>, %ratio: tensor<f32>) -> tensor<4xf32> {
  %training = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<true> : tensor<i1>}} : () -> tensor<i1>
  // expected-error @+1 {{node (Dropout, opset 17): training mode (input 2 true or not constant) is not supported: Kiln compiles inference}}
  %0 = onnx.node "Dropout"(%x, %ratio, %training) {opset = 17 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_wrap(%x: tensor<4xf32>) -> tensor<6xf32> {
  %pads = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<1> : tensor<2xi64>}} : () -> tensor<2xi64>
  // expected-error @+1 {{node (Pad, opset 17): mode 'wrap' is not supported}}
  %0 = onnx.node "Pad"(%x, %pads) {opset = 17 : i64, onnx_attrs = {mode = "wrap"}} : (tensor<4xf32>, tensor<2xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @conv_bad_group(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{node (Conv, opset 17): group 3 does not divide 4 input channels and 6 filters}}
  %0 = onnx.node "Conv"(%x, %w) {opset = 17 : i64, onnx_attrs = {group = 3 : i64}} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

// MaxPool's Indices: one generic carries each window's max and the
// row-major offset in the input where it is (the first of equal maxima).
// CHECK-LABEL: func.func @max_pool_indices
// CHECK:         %[[R:.*]]:2 = linalg.generic
// CHECK-SAME:      outs(%{{.*}}, %{{.*}} : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
// CHECK:           arith.cmpf ogt
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @max_pool_indices(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) {
  %0:2 = onnx.node "MaxPool"(%x) {opset = 12 : i64, onnx_attrs = {kernel_shape = [2, 2], strides = [2, 2]}} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %0#0, %0#1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>
}

// -----

func.func @max_pool_storage_order(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{node (MaxPool, opset 12): storage_order must be 0 or 1}}
  %0 = onnx.node "MaxPool"(%x) {opset = 12 : i64, onnx_attrs = {kernel_shape = [2, 2], strides = [2, 2], storage_order = 2 : i64}} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @reverse_sequence_axes(%x: tensor<4x4x2xf32>, %lengths: tensor<4xi64>) -> tensor<4x4x2xf32> {
  // expected-error @+1 {{node (ReverseSequence, opset 10): batch_axis and time_axis must be 0 and 1}}
  %0 = onnx.node "ReverseSequence"(%x, %lengths) {opset = 10 : i64, onnx_attrs = {batch_axis = 2 : i64}} : (tensor<4x4x2xf32>, tensor<4xi64>) -> tensor<4x4x2xf32>
  return %0 : tensor<4x4x2xf32>
}

// -----

func.func @window_type(%size: tensor<i64>) -> tensor<?xi32> {
  // expected-error @+1 {{node (HannWindow, opset 17): it must make a 1-D float tensor}}
  %0 = onnx.node "HannWindow"(%size) {opset = 17 : i64, onnx_attrs = {output_datatype = 6 : i64}} : (tensor<i64>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// MatMul with a batch on A only folds it into A's rows (one
// linalg.matmul); equal batches on both become one linalg.batch_matmul
// over their product; a broadcast batch stays a generic.
// CHECK-LABEL: func.func @matmul_batches
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<2x128x64xf32> into tensor<256x64xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%[[ROWS]], %{{.*}} : tensor<256x64xf32>, tensor<64x32xf32>)
// CHECK:         tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [2, 128, 32]
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x12x16x8xf32> into tensor<24x16x8xf32>
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : tensor<2x12x8x16xf32> into tensor<24x8x16xf32>
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<24x16x8xf32>, tensor<24x8x16xf32>)
// CHECK:         tensor.expand_shape %{{.*}} output_shape [2, 12, 16, 16]
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @matmul_batches(%a: tensor<2x128x64xf32>, %b: tensor<64x32xf32>, %q: tensor<2x12x16x8xf32>, %k: tensor<2x12x8x16xf32>, %r: tensor<1x8x16xf32>) -> (tensor<2x128x32xf32>, tensor<2x12x16x16xf32>, tensor<2x16x16xf32>) {
  %0 = onnx.node "MatMul"(%a, %b) {opset = 13 : i64} : (tensor<2x128x64xf32>, tensor<64x32xf32>) -> tensor<2x128x32xf32>
  %1 = onnx.node "MatMul"(%q, %k) {opset = 13 : i64} : (tensor<2x12x16x8xf32>, tensor<2x12x8x16xf32>) -> tensor<2x12x16x16xf32>
  %q2 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x12x16x8xf32> into tensor<24x16x8xf32>
  %q3 = tensor.extract_slice %q2[0, 0, 0] [2, 16, 8] [1, 1, 1] : tensor<24x16x8xf32> to tensor<2x16x8xf32>
  %2 = onnx.node "MatMul"(%q3, %r) {opset = 13 : i64} : (tensor<2x16x8xf32>, tensor<1x8x16xf32>) -> tensor<2x16x16xf32>
  return %0, %1, %2 : tensor<2x128x32xf32>, tensor<2x12x16x16xf32>, tensor<2x16x16xf32>
}

// -----

// A grouped 3-D Conv: one conv_3d_ncdhw_fcdhw per group over its slices
// of the channels and filters, inserted at the group's features.
// CHECK-LABEL: func.func @conv3d_groups
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [1, 2, 4, 4, 4] [1, 1, 1, 1, 1] : tensor<1x4x4x4x4xf32> to tensor<1x2x4x4x4xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0, 0, 0] [3, 2, 3, 3, 3] [1, 1, 1, 1, 1] : tensor<6x2x3x3x3xf32> to tensor<3x2x3x3x3xf32>
// CHECK:         linalg.conv_3d_ncdhw_fcdhw {{.*}} -> tensor<1x3x2x2x2xf32>
// CHECK:         tensor.insert_slice %{{.*}}[0, 0, 0, 0, 0] [1, 3, 2, 2, 2]
// CHECK:         tensor.extract_slice %{{.*}}[0, 2, 0, 0, 0] [1, 2, 4, 4, 4]
// CHECK:         tensor.extract_slice %{{.*}}[3, 0, 0, 0, 0] [3, 2, 3, 3, 3]
// CHECK:         linalg.conv_3d_ncdhw_fcdhw
// CHECK:         tensor.insert_slice %{{.*}}[0, 3, 0, 0, 0] [1, 3, 2, 2, 2]
func.func @conv3d_groups(%x: tensor<1x4x4x4x4xf32>, %w: tensor<6x2x3x3x3xf32>) -> tensor<1x6x2x2x2xf32> {
  %none = onnx.none
  %0 = onnx.node "Conv"(%x, %w, %none) {opset = 17 : i64, onnx_attrs = {group = 2 : i64}} : (tensor<1x4x4x4x4xf32>, tensor<6x2x3x3x3xf32>, none) -> tensor<1x6x2x2x2xf32>
  return %0 : tensor<1x6x2x2x2xf32>
}
