// Folding stops at the element limit.
func.func @constant_too_large() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}
