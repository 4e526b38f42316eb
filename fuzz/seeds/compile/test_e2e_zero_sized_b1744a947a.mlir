// Zero-sized tensors: ops whose loops run zero times leave their inits as
// they are (FoldZeroTripLinalgOps), so nothing zero-sized reaches codegen.

// An empty reduction: a 4x0 by 0x4 matmul is the filled 4x4 init.
func.func @empty_reduction(%a: tensor<4x0xf32>, %b: tensor<0x4xf32>) -> tensor<4x4xf32> {
  %init = arith.constant 1.5 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x0xf32>, tensor<0x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// An empty result: 0x4 by 4x0.
func.func @empty_matmul(%a: tensor<0x4xf32>, %b: tensor<4x0xf32>) -> tensor<0x0xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<0x0xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<0x0xf32>) -> tensor<0x0xf32>
  %r = linalg.matmul ins(%a, %b : tensor<0x4xf32>, tensor<4x0xf32>) outs(%f : tensor<0x0xf32>) -> tensor<0x0xf32>
  return %r : tensor<0x0xf32>
}

// An empty elementwise op.
func.func @empty_elementwise(%a: tensor<3x0xf32>) -> tensor<3x0xf32> {
  %e = tensor.empty() : tensor<3x0xf32>
  %r = linalg.exp ins(%a : tensor<3x0xf32>) outs(%e : tensor<3x0xf32>) -> tensor<3x0xf32>
  return %r : tensor<3x0xf32>
}
