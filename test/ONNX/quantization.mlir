// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// QuantizeLinear per channel: the scale and zero point reshaped to
// broadcast along axis 1; x / scale rounded half to even, plus the zero
// point, saturated to uint8's range, converted unsigned.
// CHECK-LABEL: func.func @quantize_per_channel
// CHECK:         tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK:           arith.uitofp
// CHECK:           math.roundeven
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           arith.minimumf
// CHECK:           arith.fptoui %{{.*}} : f32 to i8
func.func @quantize_per_channel(%x: tensor<2x3x4xf32>, %scale: tensor<3xf32>, %zero: tensor<3xui8>) -> tensor<2x3x4xui8> {
  %0 = onnx.node "QuantizeLinear"(%x, %scale, %zero) {opset = 13 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<2x3x4xui8>
  return %0 : tensor<2x3x4xui8>
}

// -----

// MatMulInteger: both operands widened to i32 less their zero points (A's
// per row, B's per column), then an i32 matmul.
// CHECK-LABEL: func.func @matmul_integer
// CHECK:         arith.extui %{{.*}} : i8 to i32
// CHECK:         arith.subi
// CHECK:         arith.extsi %{{.*}} : i8 to i32
// CHECK:         arith.subi
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x3xi32>, tensor<3x2xi32>) outs(%{{.*}} : tensor<4x2xi32>)
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %za: tensor<4xui8>, %zb: tensor<2xi8>) -> tensor<4x2xi32> {
  %0 = onnx.node "MatMulInteger"(%a, %b, %za, %zb) {opset = 10 : i64} : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<4xui8>, tensor<2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// DynamicQuantizeLinear: the range (with 0) from two reductions, then the
// scale, the zero point and the quantized tensor.
// CHECK-LABEL: func.func @dynamic
// CHECK:         iterator_types = ["reduction", "reduction"]
// CHECK:           arith.minimumf
// CHECK:         iterator_types = ["reduction", "reduction"]
// CHECK:           arith.maximumf
// CHECK:         arith.constant 2.550000e+02 : f32
func.func @dynamic(%x: tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) {
  %0:3 = onnx.node "DynamicQuantizeLinear"(%x) {opset = 11 : i64} : (tensor<3x4xf32>) -> (tensor<3x4xui8>, tensor<f32>, tensor<ui8>)
  return %0#0, %0#1, %0#2 : tensor<3x4xui8>, tensor<f32>, tensor<ui8>
}

// -----

func.func @wide_quantize(%x: tensor<4xf32>, %scale: tensor<f32>, %zero: tensor<i16>) -> tensor<4xi16> {
  // expected-error @+1 {{node (QuantizeLinear, opset 13): it must quantize to an 8-bit integer}}
  %0 = onnx.node "QuantizeLinear"(%x, %scale, %zero) {opset = 13 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i16>) -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

func.func @scale_rank(%x: tensor<2x3xf32>, %scale: tensor<2x3xf32>) -> tensor<2x3xui8> {
  // expected-error @+1 {{node (QuantizeLinear, opset 13): the scale (input 1) must be a scalar or 1-D}}
  %0 = onnx.node "QuantizeLinear"(%x, %scale) {opset = 13 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @scale_axis(%x: tensor<2x3xi8>, %scale: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{node (DequantizeLinear, opset 13): axis 2 is out of range for rank 2}}
  %0 = onnx.node "DequantizeLinear"(%x, %scale) {opset = 13 : i64, onnx_attrs = {axis = 2 : i64}} : (tensor<2x3xi8>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @float_operands(%a: tensor<4x3xf32>, %b: tensor<3x2xf32>) -> tensor<4x2xi32> {
  // expected-error @+1 {{node (MatMulInteger, opset 10): input 0 must be a ranked 8-bit integer}}
  %0 = onnx.node "MatMulInteger"(%a, %b) {opset = 10 : i64} : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}
