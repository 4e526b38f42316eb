// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// ONNX's optimizers (domain ai.onnx.preview.training): each output is one
// elementwise generic over its tensor's X, G and state, R and T read as
// scalars. Adagrad's new X divides by sqrt(H') + epsilon; its H' adds g².
// CHECK-LABEL: func.func @adagrad
// CHECK:         %[[X:.*]] = linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK:           arith.sitofp
// CHECK:           math.sqrt
// CHECK:           arith.divf
// CHECK:           arith.subf
// CHECK:         %[[H:.*]] = linalg.generic
// CHECK-NOT:       math.sqrt
// CHECK:         return %[[X]], %[[H]]
func.func @adagrad(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<3xf32>, %g: tensor<3xf32>, %h: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0:2 = onnx.node "Adagrad"(%r, %t, %x, %g, %h) {domain = "ai.onnx.preview.training", opset = 1 : i64, onnx_attrs = {decay_factor = 0.1 : f32, epsilon = 1.0e-5 : f32, norm_coefficient = 1.0e-3 : f32}} : (tensor<f32>, tensor<i64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Adam on two tensors: the first tensor's X', V' and H' from its inputs,
// then the second's; the bias correction powers T.
// CHECK-LABEL: func.func @adam_two_tensors
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %arg2, %arg4, %arg6, %arg8 :
// CHECK:           math.powf
// CHECK-COUNT-2: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %arg2, %arg4, %arg6, %arg8 :
// CHECK-COUNT-3: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %arg3, %arg5, %arg7, %arg9 :
// CHECK-NOT:     linalg.generic
func.func @adam_two_tensors(%r: tensor<f32>, %t: tensor<i64>, %x1: tensor<2xf32>, %x2: tensor<4xf32>, %g1: tensor<2xf32>, %g2: tensor<4xf32>, %v1: tensor<2xf32>, %v2: tensor<4xf32>, %h1: tensor<2xf32>, %h2: tensor<4xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) {
  %0:6 = onnx.node "Adam"(%r, %t, %x1, %x2, %g1, %g2, %v1, %v2, %h1, %h2) {domain = "ai.onnx.preview.training", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>) -> (tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>
}

// -----

// Momentum picks beta or 1 by whether T is positive.
// CHECK-LABEL: func.func @momentum
// CHECK:         arith.cmpf ogt
// CHECK:         arith.select
func.func @momentum(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2x2xf32>, %g: tensor<2x2xf32>, %v: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %g, %v) {domain = "ai.onnx.preview.training", opset = 1 : i64, onnx_attrs = {alpha = 0.95 : f32, beta = 0.1 : f32, mode = "nesterov", norm_coefficient = 0.0 : f32}} : (tensor<f32>, tensor<i64>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return %0#0, %0#1 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

func.func @bad_mode(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{node (Momentum, domain 'ai.onnx.preview.training', opset 1): mode 'heavy' is neither 'standard' nor 'nesterov'}}
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %g, %v) {domain = "ai.onnx.preview.training", opset = 1 : i64, onnx_attrs = {alpha = 0.9 : f32, beta = 0.1 : f32, mode = "heavy", norm_coefficient = 0.0 : f32}} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @uneven_inputs(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Adagrad, domain 'ai.onnx.preview.training', opset 1): expects R, T and then 3 inputs per optimized tensor; got 4 inputs}}
  %0 = onnx.node "Adagrad"(%r, %t, %x, %g) {domain = "ai.onnx.preview.training", opset = 1 : i64} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @rate_not_scalar(%r: tensor<2xf32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{input 0 (R) must be a scalar; it has type 'tensor<2xf32>'}}
  %0:2 = onnx.node "Adagrad"(%r, %t, %x, %g, %h) {domain = "ai.onnx.preview.training", opset = 1 : i64} : (tensor<2xf32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @gradient(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Gradient, domain 'ai.onnx.preview.training', opset 1): Kiln's ONNX importer does not convert op type 'Gradient'}}
  %0 = onnx.node "Gradient"(%x) {domain = "ai.onnx.preview.training", opset = 1 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// BatchNormalization in training mode normalizes by the batch's mean and
// variance over every dim but the channels, and blends them into the
// running statistics it outputs.
// CHECK-LABEL: func.func @batch_norm_training
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction", "reduction"]
// CHECK:         %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK:         %[[Y:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %[[MEAN]], %{{.*}} : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK:         %[[RUNNING_MEAN:.*]] = linalg.generic {{.*}} ins(%arg3, %[[MEAN]] : tensor<3xf32>, tensor<3xf32>)
// CHECK:         %[[RUNNING_VAR:.*]] = linalg.generic {{.*}} ins(%arg4, %{{.*}} : tensor<3xf32>, tensor<3xf32>)
// CHECK:         return %[[Y]], %[[RUNNING_MEAN]], %[[RUNNING_VAR]]
func.func @batch_norm_training(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = onnx.node "BatchNormalization"(%x, %s, %b, %mean, %var) {opset = 15 : i64, onnx_attrs = {training_mode = 1 : i64}} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

func.func @batch_norm_statistics_at_inference(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  // expected-error @+1 {{node (BatchNormalization, opset 15): outputs the running mean and variance only in training mode (training_mode = 1)}}
  %0:2 = onnx.node "BatchNormalization"(%x, %s, %s, %s, %s) {opset = 15 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<3xf32>
}

// -----

func.func @momentum_without_alpha(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{node (Momentum, domain 'ai.onnx.preview.training', opset 1): attribute 'alpha' is required}}
  %0:2 = onnx.node "Momentum"(%r, %t, %x, %g, %v) {domain = "ai.onnx.preview.training", opset = 1 : i64, onnx_attrs = {beta = 0.1 : f32, mode = "standard", norm_coefficient = 0.0 : f32}} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}
