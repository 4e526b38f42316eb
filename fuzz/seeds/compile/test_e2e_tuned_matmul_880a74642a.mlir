// Matmuls the default tuning specs configure (each entry of the spec for
// this machine's CPU, and the AVX2 and generic x86-64 specs), checked
// against numpy: the tuned configurations compute the right numbers,
// remainders included.

// At least 1024 everywhere (the "large" entries), sizes that divide no tile.
func.func @large(%a: tensor<1030x1100xf32>, %b: tensor<1100x1050xf32>) -> tensor<1030x1050xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1030x1050xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1030x1050xf32>) -> tensor<1030x1050xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1030x1100xf32>, tensor<1100x1050xf32>) outs(%f : tensor<1030x1050xf32>) -> tensor<1030x1050xf32>
  return %r : tensor<1030x1050xf32>
}

// From 256 to 1023 (the "f32_matmul" entries), odd sizes.
func.func @mid(%a: tensor<301x517xf32>, %b: tensor<517x259xf32>) -> tensor<301x259xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<301x259xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<301x259xf32>) -> tensor<301x259xf32>
  %r = linalg.matmul ins(%a, %b : tensor<301x517xf32>, tensor<517x259xf32>) outs(%f : tensor<301x259xf32>) -> tensor<301x259xf32>
  return %r : tensor<301x259xf32>
}
