// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// ReduceSum whose axes are a graph input: the host folds the axes into a
// mask, then sums each dim (not those of static size 1) under an scf.if
// on its bit; without keepdims a tensor.reshape drops the summed dims.
// CHECK-LABEL: func.func @runtime_axes
// CHECK:         %[[LOOP:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (i64)
// CHECK:           tensor.extract
// CHECK:           arith.shli
// CHECK:           arith.ori
// CHECK:         %[[MASK:.*]] = arith.select %{{.*}}, %{{.*}}, %[[LOOP]] : i64
// CHECK:         %[[D0:.*]] = scf.if %{{.*}} -> (tensor<?x1x4xf32>)
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["reduction", "parallel", "parallel"]
// CHECK:         %[[D2:.*]] = scf.if %{{.*}} -> (tensor<?x1x?xf32>)
// CHECK-NOT:     scf.if
// CHECK:         tensor.from_elements %{{.*}}, %{{.*}} : tensor<2xi64>
// CHECK:         tensor.reshape %[[D2]](%{{.*}}) : (tensor<?x1x?xf32>, tensor<2xi64>) -> tensor<3x4xf32>
func.func @runtime_axes(%x: tensor<3x1x4xf32>, %axes: tensor<1xi64>) -> tensor<3x4xf32> {
  %0 = onnx.node "ReduceSum"(%x, %axes) {opset = 13 : i64, onnx_attrs = {keepdims = 0 : i64}} : (tensor<3x1x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// With keepdims the summed form is cast to the result.
// CHECK-LABEL: func.func @keep_dims
// CHECK:         %[[LAST:.*]] = scf.if %{{.*}} -> (tensor<?x?xi32>)
// CHECK:         tensor.cast %[[LAST]] : tensor<?x?xi32> to tensor<?x?xi32>
func.func @keep_dims(%x: tensor<3x4xi32>, %axes: tensor<?xi64>) -> tensor<?x?xi32> {
  %0 = onnx.node "ReduceSum"(%x, %axes) {opset = 13 : i64} : (tensor<3x4xi32>, tensor<?xi64>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// -----

func.func @axes_rank(%x: tensor<3x4xf32>, %axes: tensor<1x1xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{node (ReduceSum, opset 13): its axes (input 1) must be 1-D}}
  %0 = onnx.node "ReduceSum"(%x, %axes) {opset = 13 : i64} : (tensor<3x4xf32>, tensor<1x1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @keeps_rank(%x: tensor<3x4xf32>, %axes: tensor<1xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{node (ReduceSum, opset 13): without keepdims its result must have a lower rank than its input}}
  %0 = onnx.node "ReduceSum"(%x, %axes) {opset = 13 : i64, onnx_attrs = {keepdims = 0 : i64}} : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
