// Reshapes between elementwise ops move out of the way of fusion.
func.func @reshape_between(%a: tensor<4x8xf32>, %b: tensor<32xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %flat = tensor.collapse_shape %exp [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e1 = tensor.empty() : tensor<32xf32>
  %add = linalg.add ins(%flat, %b : tensor<32xf32>, tensor<32xf32>) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  return %add : tensor<32xf32>
}
