// RUN: kiln-opt %s --kiln-bufferize-host | FileCheck %s

// Barriers go away; checks read buffers (constants become globals).
// CHECK-LABEL: func.func @test()
// CHECK-NOT:     kiln.optimization_barrier
// CHECK:         %[[A:.+]] = memref.get_global @{{.+}} : memref<2xf32>
// CHECK:         %[[E:.+]] = memref.get_global @{{.+}} : memref<2xf32>
// CHECK:         kiln.check almost_eq(%[[A]], %[[E]]) : memref<2xf32>, memref<2xf32>
func.func @test() {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = kiln.optimization_barrier %c : tensor<2xf32>
  %e = arith.constant dense<[1.0, 2.5]> : tensor<2xf32>
  kiln.check almost_eq(%b, %e) : tensor<2xf32>, tensor<2xf32>
  return
}

// Checked slices are copied to dense buffers first.
// CHECK-LABEL: func.func @slice(
// CHECK:         %[[SUB:.+]] = memref.subview
// CHECK:         %[[DENSE:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x2xi32>
// CHECK:         memref.copy %[[SUB]], %[[DENSE]]
// CHECK:         kiln.check true(%[[DENSE]]) : memref<2x2xi32>
func.func @slice(%t: tensor<4x4xi32>) {
  %s = tensor.extract_slice %t[1, 1] [2, 2] [1, 1] : tensor<4x4xi32> to tensor<2x2xi32>
  kiln.check true(%s) : tensor<2x2xi32>
  return
}
