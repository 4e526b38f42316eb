// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// DFT of a real signal along axis 1: a contraction of the samples with
// constant cos and sin matrices (frequencies x samples), the last output
// dim choosing the real or imaginary part.
// CHECK-LABEL: func.func @real_forward
// CHECK:         %[[COS:.*]] = arith.constant dense<{{.*}}> : tensor<4x4xf32>
// CHECK:         %[[SIN:.*]] = arith.constant dense<{{.*}}> : tensor<4x4xf32>
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%arg0, %[[COS]], %[[SIN]] : tensor<2x4x3x1xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-SAME:      outs(%{{.*}} : tensor<2x4x3x2xf32>)
// CHECK:           arith.negf
// CHECK:           arith.select
func.func @real_forward(%x: tensor<2x4x3x1xf32>) -> tensor<2x4x3x2xf32> {
  %0 = onnx.node "DFT"(%x) {opset = 17 : i64} : (tensor<2x4x3x1xf32>) -> tensor<2x4x3x2xf32>
  return %0 : tensor<2x4x3x2xf32>
}

// -----

// A onesided transform of 8 padded samples keeps 5 frequencies; the 6
// samples the signal has are the only ones read.
// CHECK-LABEL: func.func @onesided_padded
// CHECK:         arith.constant dense<{{.*}}> : tensor<5x6xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%{{.*}} : tensor<1x5x2xf32>)
func.func @onesided_padded(%x: tensor<1x6x1xf32>) -> tensor<1x5x2xf32> {
  %n = onnx.node "Constant"() {opset = 17 : i64, onnx_attrs = {value = dense<8> : tensor<i64>}} : () -> tensor<i64>
  %0 = onnx.node "DFT"(%x, %n) {opset = 17 : i64, onnx_attrs = {onesided = 1 : i64}} : (tensor<1x6x1xf32>, tensor<i64>) -> tensor<1x5x2xf32>
  return %0 : tensor<1x5x2xf32>
}

// -----

// The inverse of a complex signal reads both parts; 1 / L is in the
// matrices (cos 0 / 2 = 0.5).
// CHECK-LABEL: func.func @complex_inverse
// CHECK:         arith.constant dense<{{\[\[}}5.000000e-01, 5.000000e-01]
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%arg0, %arg0, %{{.*}}, %{{.*}} : tensor<1x2x2xf32>, tensor<1x2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NOT:       arith.negf
// CHECK:           arith.subf
func.func @complex_inverse(%x: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %0 = onnx.node "DFT"(%x) {opset = 17 : i64, onnx_attrs = {inverse = 1 : i64}} : (tensor<1x2x2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @axis_components(%x: tensor<1x4x1xf32>) -> tensor<1x4x2xf32> {
  // expected-error @+1 {{node (DFT, opset 17): axis 2 is the batch or the components; the transform runs along a signal axis, 1 to 1}}
  %0 = onnx.node "DFT"(%x) {opset = 17 : i64, onnx_attrs = {axis = 2 : i64}} : (tensor<1x4x1xf32>) -> tensor<1x4x2xf32>
  return %0 : tensor<1x4x2xf32>
}

// -----

func.func @onesided_complex(%x: tensor<1x4x2xf32>) -> tensor<1x3x2xf32> {
  // expected-error @+1 {{node (DFT, opset 17): onesided applies to the forward transform of a real signal}}
  %0 = onnx.node "DFT"(%x) {opset = 17 : i64, onnx_attrs = {onesided = 1 : i64}} : (tensor<1x4x2xf32>) -> tensor<1x3x2xf32>
  return %0 : tensor<1x3x2xf32>
}

// -----

func.func @runtime_length(%x: tensor<1x4x1xf32>, %n: tensor<i64>) -> tensor<1x?x2xf32> {
  // expected-error @+1 {{node (DFT, opset 17): input 1 (dft_length) must be a constant}}
  %0 = onnx.node "DFT"(%x, %n) {opset = 17 : i64} : (tensor<1x4x1xf32>, tensor<i64>) -> tensor<1x?x2xf32>
  return %0 : tensor<1x?x2xf32>
}
