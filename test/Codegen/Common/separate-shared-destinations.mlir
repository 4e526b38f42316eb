// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-separate-shared-destinations))' | FileCheck %s

// Each write gets its own fill, and each fill its own empty tensor; a fill
// that is only read stays shared.
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-3: tensor.empty() : tensor<32xi64>
// CHECK-NOT:     tensor.empty() : tensor<32xi64>
// CHECK-COUNT-3: linalg.fill ins(%{{.+}} : i64) outs(%{{.+}} : tensor<32xi64>)
// CHECK:         vector.transfer_read
// CHECK:         vector.transfer_write %{{.+}}, %[[D1:[0-9]+]][
// CHECK-NOT:     %[[D1]][
// CHECK:         vector.transfer_write %{{.+}}, %[[D2:[0-9]+]][
// CHECK-NOT:     = %[[D1]])
// CHECK-NOT:     = %[[D2]])
// CHECK:         scf.for
func.func @shared(%v: vector<32xi64>, %n: index) -> (tensor<32xi64>, tensor<32xi64>, tensor<32xi64>, vector<32xi64>) {
  %zero = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<32xi64>
  %f = linalg.fill ins(%zero : i64) outs(%e : tensor<32xi64>) -> tensor<32xi64>
  %read = vector.transfer_read %f[%c0], %zero : tensor<32xi64>, vector<32xi64>
  %a = vector.transfer_write %v, %f[%c0] : vector<32xi64>, tensor<32xi64>
  %b = vector.transfer_write %v, %f[%c0] : vector<32xi64>, tensor<32xi64>
  %c = scf.for %i = %c0 to %n step %c1 iter_args(%t = %f) -> (tensor<32xi64>) {
    scf.yield %t : tensor<32xi64>
  }
  return %a, %b, %c, %read : tensor<32xi64>, tensor<32xi64>, tensor<32xi64>, vector<32xi64>
}
