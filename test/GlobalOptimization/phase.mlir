// RUN: kiln-opt %s --kiln-phase-global-optimization | FileCheck %s

// Elementwise arith on tensors becomes linalg and fuses; duplicates go.
// CHECK-LABEL: func.func @arith_on_tensors
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         return %[[R]], %[[R]]
func.func @arith_on_tensors(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = arith.mulf %a, %b : tensor<8xf32>
  %1 = arith.addf %0, %a : tensor<8xf32>
  %2 = arith.mulf %a, %b : tensor<8xf32>
  %3 = arith.addf %2, %a : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
}
