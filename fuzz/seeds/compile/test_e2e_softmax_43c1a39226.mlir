func.func @softmax(%x: tensor<13x100xf32>) -> tensor<13x100xf32> {
  %e = tensor.empty() : tensor<13x100xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<13x100xf32>) outs(%e : tensor<13x100xf32>) -> tensor<13x100xf32>
  return %r : tensor<13x100xf32>
}

// Softmax over the outer dim of a 3-d tensor.
func.func @softmax_middle(%x: tensor<3x20x7xf32>) -> tensor<3x20x7xf32> {
  %e = tensor.empty() : tensor<3x20x7xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x20x7xf32>) outs(%e : tensor<3x20x7xf32>) -> tensor<3x20x7xf32>
  return %r : tensor<3x20x7xf32>
}
