// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// Det of 3x3 matrices: per column but the last, a reduction finds the
// pivot row and one generic swaps and eliminates (two columns, two of
// each), a sign flips per swap; then sign times the diagonal's product.
// CHECK-LABEL: func.func @det_3x3
// CHECK:         %[[PIVOT:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xindex>)
// CHECK:           math.absf
// CHECK:         linalg.generic {{.*}} ins(%[[PIVOT]]#1 : tensor<2xindex>) outs(%{{.*}} : tensor<2x3x3xf32>)
// CHECK-COUNT-3:   tensor.extract
// CHECK:           arith.divf
// CHECK:           tensor.extract
// CHECK:         arith.negf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x3xf32>)
// CHECK:         arith.negf
// CHECK:         %[[DET:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%{{.*}} : tensor<2x3x3xf32>) outs(%{{.*}} : tensor<2xf32>)
// CHECK:         return %[[DET]]
func.func @det_3x3(%x: tensor<2x3x3xf32>) -> tensor<2xf32> {
  %0 = onnx.node "Det"(%x) {opset = 11 : i64} : (tensor<2x3x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @not_square(%x: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+1 {{node (Det, opset 11): takes square matrices of a static size from 1 to 64; got 'tensor<2x3xf32>'}}
  %0 = onnx.node "Det"(%x) {opset = 11 : i64} : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @integers(%x: tensor<2x2xi32>) -> tensor<i32> {
  // expected-error @+1 {{node (Det, opset 11): takes float matrices [..., n, n]; got 'tensor<2x2xi32>'}}
  %0 = onnx.node "Det"(%x) {opset = 11 : i64} : (tensor<2x2xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}
