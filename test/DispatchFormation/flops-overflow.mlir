// RUN: kiln-compile %s --compile-to=dispatch-formation | FileCheck %s

// A FLOP count past 64 bits (2 * 2^22 * 2^22 * 2^22) is unknown, not
// negative: the dispatch carries no kiln.flops.
// CHECK-LABEL: func.func @huge
// CHECK:         kiln.dispatch @huge_dispatch_0
// CHECK-NOT:     kiln.flops
func.func @huge(%a: tensor<4194304x4194304xf32>, %b: tensor<4194304x4194304xf32>) -> tensor<4194304x4194304xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4194304x4194304xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4194304x4194304xf32>) -> tensor<4194304x4194304xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4194304x4194304xf32>, tensor<4194304x4194304xf32>) outs(%f : tensor<4194304x4194304xf32>) -> tensor<4194304x4194304xf32>
  return %r : tensor<4194304x4194304xf32>
}
