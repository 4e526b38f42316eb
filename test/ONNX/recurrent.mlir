// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// An RNN over 2 steps unrolls: per step, the step's input and the previous
// hidden state times the transposed weights, tanh of their sum, and an
// insert into Y; Y_h is the last state.
// CHECK-LABEL: func.func @rnn_two_steps
// CHECK-COUNT-2: tensor.extract_slice %{{.*}}[{{[01]}}, 0, 0] [1, 3, 2] [1, 1, 1] : tensor<2x3x2xf32> to tensor<3x2xf32>
// CHECK-NOT:     tensor.extract_slice %{{.*}} : tensor<2x3x2xf32>
// CHECK:         math.tanh
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[1, 0, 0, 0] [1, 1, 3, 4] [1, 1, 1, 1] : tensor<3x4xf32> into tensor<2x1x3x4xf32>
func.func @rnn_two_steps(%x: tensor<2x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) -> (tensor<2x1x3x4xf32>, tensor<1x3x4xf32>) {
  %0:2 = onnx.node "RNN"(%x, %w, %r) {opset = 14 : i64, onnx_attrs = {hidden_size = 4 : i64}} : (tensor<2x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (tensor<2x1x3x4xf32>, tensor<1x3x4xf32>)
  return %0#0, %0#1 : tensor<2x1x3x4xf32>, tensor<1x3x4xf32>
}

// -----

func.func @unknown_activation(%x: tensor<2x3x2xf32>, %w: tensor<1x4x2xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x3x4xf32> {
  %none = onnx.none
  // expected-error @+1 {{node (RNN, opset 14): activation 'Softsign' is not supported (Tanh, Sigmoid, Relu)}}
  %0:2 = onnx.node "RNN"(%x, %w, %r) {opset = 14 : i64, onnx_attrs = {hidden_size = 4 : i64, activations = ["Softsign"]}} : (tensor<2x3x2xf32>, tensor<1x4x2xf32>, tensor<1x4x4xf32>) -> (none, tensor<1x3x4xf32>)
  return %0#1 : tensor<1x3x4xf32>
}

// -----

func.func @weights_shape(%x: tensor<2x3x2xf32>, %w: tensor<1x8x2xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x3x4xf32> {
  // expected-error @+1 {{node (GRU, opset 14): its W must be 1x12x2}}
  %0:2 = onnx.node "GRU"(%x, %w, %r) {opset = 14 : i64, onnx_attrs = {hidden_size = 4 : i64}} : (tensor<2x3x2xf32>, tensor<1x8x2xf32>, tensor<1x4x4xf32>) -> (none, tensor<1x3x4xf32>)
  return %0#1 : tensor<1x3x4xf32>
}

// -----

func.func @bad_direction(%x: tensor<2x3x2xf32>, %w: tensor<1x16x2xf32>, %r: tensor<1x16x4xf32>) -> tensor<1x3x4xf32> {
  // expected-error @+1 {{node (LSTM, opset 14): direction 'sideways' is unknown}}
  %0:2 = onnx.node "LSTM"(%x, %w, %r) {opset = 14 : i64, onnx_attrs = {hidden_size = 4 : i64, direction = "sideways"}} : (tensor<2x3x2xf32>, tensor<1x16x2xf32>, tensor<1x16x4xf32>) -> (none, tensor<1x3x4xf32>)
  return %0#1 : tensor<1x3x4xf32>
}
