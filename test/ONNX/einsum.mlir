// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// A batched matmul in Einsum's notation is one generic: the batch and the
// output's letters parallel, the shared letter summed.
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_matmul
// CHECK:         linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @batch_matmul(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = onnx.node "Einsum"(%a, %b) {opset = 12 : i64, onnx_attrs = {equation = "bij, bjk -> bik"}} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// An ellipsis stands for the leading dims; a repeated letter reads the
// diagonal. Without `->` the output keeps the letters used once.
// CHECK-DAG:   #[[DIAG:.*]] = affine_map<(d0, d1) -> (d0, d1, d1)>
// CHECK-DAG:   #[[KEEP:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[TRACE_IN:.*]] = affine_map<(d0) -> (d0, d0)>
// CHECK-DAG:   #[[TRACE_OUT:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @diagonals
// CHECK:         linalg.generic {indexing_maps = [#[[DIAG]], #[[KEEP]]], iterator_types = ["parallel", "parallel"]}
// CHECK:         linalg.generic {indexing_maps = [#[[TRACE_IN]], #[[TRACE_OUT]]], iterator_types = ["reduction"]}
func.func @diagonals(%x: tensor<3x4x4xf32>, %y: tensor<4x4xf32>) -> (tensor<3x4xf32>, tensor<f32>) {
  %0 = onnx.node "Einsum"(%x) {opset = 12 : i64, onnx_attrs = {equation = "...ii ->...i"}} : (tensor<3x4x4xf32>) -> tensor<3x4xf32>
  %1 = onnx.node "Einsum"(%y) {opset = 12 : i64, onnx_attrs = {equation = "ii"}} : (tensor<4x4xf32>) -> tensor<f32>
  return %0, %1 : tensor<3x4xf32>, tensor<f32>
}

// -----

func.func @operand_count(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Einsum, opset 12): the equation 'ij,jk->i' names 2 operands but the node has 1}}
  %0 = onnx.node "Einsum"(%a) {opset = 12 : i64, onnx_attrs = {equation = "ij,jk->i"}} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_term(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Einsum, opset 12): the equation's term 'i1' must hold letters and at most one '...'}}
  %0 = onnx.node "Einsum"(%a) {opset = 12 : i64, onnx_attrs = {equation = "i1->i"}} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @rank_mismatch(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Einsum, opset 12): operand 0 has rank 2 but its term 'ijk' names 3 dims}}
  %0 = onnx.node "Einsum"(%a) {opset = 12 : i64, onnx_attrs = {equation = "ijk->i"}} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown_output_letter(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{node (Einsum, opset 12): the output names 'k', which no operand has}}
  %0 = onnx.node "Einsum"(%a) {opset = 12 : i64, onnx_attrs = {equation = "ij->k"}} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
