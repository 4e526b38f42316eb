// RUN: kiln-opt %s --kiln-phase-dispatch-formation | FileCheck %s

// Two layers with the same shapes share one executable.
// CHECK:     kiln.executable private @two_layers_dispatch_0
// CHECK-NOT: kiln.executable private
// CHECK-LABEL: func.func @two_layers
// CHECK:       %[[H:.+]] = kiln.dispatch @two_layers_dispatch_0::@two_layers_dispatch_0_matmul_8x8x8_f32[%c8, %c8](%arg0, %arg1)
// CHECK:       %[[O:.+]] = kiln.dispatch @two_layers_dispatch_0::@two_layers_dispatch_0_matmul_8x8x8_f32[%c8, %c8](%[[H]], %arg2)
// CHECK:       return %[[O]]
func.func @two_layers(%x: tensor<8x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%h, %w2 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}
