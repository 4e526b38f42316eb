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
