// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// GridSample: one generic over the output reads the grid's x and y
// through its maps and gathers the image. Bilinear reads four taps.
// CHECK-LABEL: func.func @bilinear_zeros
// CHECK:         linalg.generic {indexing_maps = [#[[GRID_X:.*]], #[[GRID_Y:.*]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME:      ins(%arg1, %arg1 : tensor<1x6x6x2xf32>, tensor<1x6x6x2xf32>)
// CHECK-SAME:      outs(%{{.*}} : tensor<1x1x6x6xf32>)
// CHECK:           math.floor
// CHECK-COUNT-4:   tensor.extract %arg0
// CHECK-NOT:       tensor.extract
// CHECK:           linalg.yield
func.func @bilinear_zeros(%x: tensor<1x1x4x4xf32>, %grid: tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32> {
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64} : (tensor<1x1x4x4xf32>, tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32>
  return %0 : tensor<1x1x6x6xf32>
}

// -----

// Bicubic reads a 4 x 4 neighbourhood; reflection folds each tap's
// coordinate back with a remainder.
// CHECK-LABEL: func.func @bicubic_reflection
// CHECK:         linalg.generic
// CHECK:           arith.remf
// CHECK-COUNT-16:  tensor.extract %arg0
// CHECK-NOT:       tensor.extract
func.func @bicubic_reflection(%x: tensor<1x2x3x5xf32>, %grid: tensor<1x2x4x2xf32>) -> tensor<1x2x2x4xf32> {
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64, onnx_attrs = {mode = "bicubic", padding_mode = "reflection", align_corners = 1 : i64}} : (tensor<1x2x3x5xf32>, tensor<1x2x4x2xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

// -----

// Nearest rounds half to even, as PyTorch does.
// CHECK-LABEL: func.func @nearest_border
// CHECK:         math.roundeven
// CHECK:         tensor.extract %arg0
// CHECK-NOT:     tensor.extract
func.func @nearest_border(%x: tensor<?x1x4x4xf32>, %grid: tensor<?x2x2x2xf32>) -> tensor<?x1x2x2xf32> {
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64, onnx_attrs = {mode = "nearest", padding_mode = "border"}} : (tensor<?x1x4x4xf32>, tensor<?x2x2x2xf32>) -> tensor<?x1x2x2xf32>
  return %0 : tensor<?x1x2x2xf32>
}

// -----

func.func @bad_mode(%x: tensor<1x1x4x4xf32>, %grid: tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32> {
  // expected-error @+1 {{node (GridSample, opset 16): mode 'area' is none of 'nearest', 'bilinear' and 'bicubic'}}
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64, onnx_attrs = {mode = "area"}} : (tensor<1x1x4x4xf32>, tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32>
  return %0 : tensor<1x1x6x6xf32>
}

// -----

func.func @bad_padding(%x: tensor<1x1x4x4xf32>, %grid: tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32> {
  // expected-error @+1 {{node (GridSample, opset 16): padding_mode 'wrap' is none of 'zeros', 'border' and 'reflection'}}
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64, onnx_attrs = {padding_mode = "wrap"}} : (tensor<1x1x4x4xf32>, tensor<1x6x6x2xf32>) -> tensor<1x1x6x6xf32>
  return %0 : tensor<1x1x6x6xf32>
}

// -----

func.func @grid_of_three(%x: tensor<1x1x4x4xf32>, %grid: tensor<1x6x6x3xf32>) -> tensor<1x1x6x6xf32> {
  // expected-error @+1 {{node (GridSample, opset 16): its grid's last dim must be 2 (x, y)}}
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64} : (tensor<1x1x4x4xf32>, tensor<1x6x6x3xf32>) -> tensor<1x1x6x6xf32>
  return %0 : tensor<1x1x6x6xf32>
}

// -----

func.func @volume(%x: tensor<1x1x2x4x4xf32>, %grid: tensor<1x2x6x6x3xf32>) -> tensor<1x1x2x6x6xf32> {
  // expected-error @+1 {{node (GridSample, opset 16): samples 4-D images (N x C x H x W) at a 4-D grid (N x H_out x W_out x 2)}}
  %0 = onnx.node "GridSample"(%x, %grid) {opset = 16 : i64} : (tensor<1x1x2x4x4xf32>, tensor<1x2x6x6x3xf32>) -> tensor<1x1x2x6x6xf32>
  return %0 : tensor<1x1x2x6x6xf32>
}
