// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// ScatterElements along axis 1: a generic over the data's elements and
// the updates along the axis (a reduction), starting from a copy of the
// data; an update lands where its index, wrapped when negative, is the
// element's position along the axis. Indices narrower than the data are
// padded with an index no position matches.
// CHECK-DAG:   #[[READ:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @scatter_elements
// CHECK:         %[[INDICES:.*]] = tensor.pad %{{.*}} low[0, 0] high[2, 0]
// CHECK:           tensor.yield %{{.*}} : i64
// CHECK:         %[[UPDATES:.*]] = tensor.pad
// CHECK:         linalg.generic {indexing_maps = [#[[READ]], #[[READ]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME:      ins(%[[INDICES]], %[[UPDATES]] : tensor<3x2xi64>, tensor<3x2xf32>)
// CHECK:           arith.select
// CHECK:           %[[POSITION:.*]] = linalg.index 1 : index
// CHECK:           %[[MATCH:.*]] = arith.cmpi eq, %{{.*}}, %[[POSITION]]
// CHECK:           %[[SUM:.*]] = arith.addf
// CHECK:           arith.select %[[MATCH]], %[[SUM]]
func.func @scatter_elements(%data: tensor<3x5xf32>, %indices: tensor<1x2xi64>, %updates: tensor<1x2xf32>) -> tensor<3x5xf32> {
  %0 = onnx.node "ScatterElements"(%data, %indices, %updates) {opset = 16 : i64, onnx_attrs = {axis = 1 : i64, reduction = "add"}} : (tensor<3x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// ScatterND: one operand per index component, the update rows (a
// reduction) matched against the data's leading dims.
// CHECK-DAG:   #[[COMPONENT:.*]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-DAG:   #[[UPDATE:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @scatter_nd
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [2, 1] [1, 1] : tensor<2x1xi64> to tensor<2xi64>
// CHECK:         linalg.generic {indexing_maps = [#[[COMPONENT]], #[[UPDATE]], #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK:           linalg.index 0 : index
// CHECK:           arith.cmpi eq
// CHECK:           arith.andi
// CHECK:           arith.select
func.func @scatter_nd(%data: tensor<4x3xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %0 = onnx.node "ScatterND"(%data, %indices, %updates) {opset = 16 : i64} : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @bad_reduction(%data: tensor<3xf32>, %indices: tensor<1xi64>, %updates: tensor<1xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{node (ScatterElements, opset 16): reduction 'sum' is not one of none, add, mul, max, min}}
  %0 = onnx.node "ScatterElements"(%data, %indices, %updates) {opset = 16 : i64, onnx_attrs = {reduction = "sum"}} : (tensor<3xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @shapes_differ(%data: tensor<3x4xf32>, %indices: tensor<2x2xi64>, %updates: tensor<2x3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{node (ScatterElements, opset 16): its indices and updates must have one shape and the data's rank}}
  %0 = onnx.node "ScatterElements"(%data, %indices, %updates) {opset = 16 : i64} : (tensor<3x4xf32>, tensor<2x2xi64>, tensor<2x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @deep_indices(%data: tensor<3x4xf32>, %indices: tensor<2x3xi64>, %updates: tensor<2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{node (ScatterND, opset 16): the last dim of its indices must be static and at most the data's rank 2}}
  %0 = onnx.node "ScatterND"(%data, %indices, %updates) {opset = 16 : i64} : (tensor<3x4xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @updates_rank(%data: tensor<3x4xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{node (ScatterND, opset 16): its updates must have rank 2}}
  %0 = onnx.node "ScatterND"(%data, %indices, %updates) {opset = 16 : i64} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
