// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// ConvTranspose in 2-D: the filter's channel dims swapped and its window
// flipped by a copy that reads k - 1 - d (global optimization folds it
// into the channels-last convolution), the input padded by the kernel's
// extent less one, then a stride-1 convolution.
// CHECK-DAG:   #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, -d2 + 2, -d3 + 2)>
// CHECK-LABEL: func.func @conv_transpose_2d
// CHECK:         %[[FILTER:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #{{.*}}]
// CHECK-SAME:      ins(%arg1 : tensor<1x2x3x3xf32>) outs(%{{.*}} : tensor<2x1x3x3xf32>)
// CHECK:         tensor.pad %arg0 low[0, 0, 2, 2] high[0, 0, 2, 2]
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %[[FILTER]] : tensor<1x1x7x7xf32>, tensor<2x1x3x3xf32>)
func.func @conv_transpose_2d(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %0 = onnx.node "ConvTranspose"(%x, %w) {opset = 11 : i64} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

// In 3-D the flip stays a dispatch of its own, which CPU tiling cannot
// slice through reversed reads: each element is gathered at 2 - d instead.
// CHECK-LABEL: func.func @conv_transpose_3d
// CHECK:         %[[FILTER:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x3x3x3xf32>)
// CHECK:           %[[D1:.*]] = linalg.index 1
// CHECK:           %[[D0:.*]] = linalg.index 0
// CHECK:           %[[K0:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           %[[K1:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           %[[K2:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:           tensor.extract %arg1[%[[D1]], %[[D0]], %[[K0]], %[[K1]], %[[K2]]] : tensor<1x2x3x3x3xf32>
// CHECK:         %[[SLICE:.*]] = tensor.extract_slice %[[FILTER]]
// CHECK:         linalg.conv_3d_ncdhw_fcdhw {{.*}} ins(%{{.*}}, %[[SLICE]] :
func.func @conv_transpose_3d(%x: tensor<1x1x3x4x5xf32>, %w: tensor<1x2x3x3x3xf32>) -> tensor<1x2x5x6x7xf32> {
  %0 = onnx.node "ConvTranspose"(%x, %w) {opset = 11 : i64} : (tensor<1x1x3x4x5xf32>, tensor<1x2x3x3x3xf32>) -> tensor<1x2x5x6x7xf32>
  return %0 : tensor<1x2x5x6x7xf32>
}

// -----

func.func @pads_past_kernel(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32> {
  // expected-error @+1 {{node (ConvTranspose, opset 11): pads larger than the kernel's extent are not supported}}
  %0 = onnx.node "ConvTranspose"(%x, %w) {opset = 11 : i64, onnx_attrs = {pads = [4, 4, 0, 0]}} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}
