// RUN: %e2e %s

// CASE: softmax
// INPUT: x = rand(13, 100, low=-4.0, high=4.0)
// REFERENCE: np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
// TOLERANCE: 1e-5
func.func @softmax(%x: tensor<13x100xf32>) -> tensor<13x100xf32> {
  %e = tensor.empty() : tensor<13x100xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<13x100xf32>) outs(%e : tensor<13x100xf32>) -> tensor<13x100xf32>
  return %r : tensor<13x100xf32>
}

// Softmax over the outer dim of a 3-d tensor.
// CASE: softmax_middle
// INPUT: x = rand(3, 20, 7)
// REFERENCE: np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
// TOLERANCE: 1e-5
func.func @softmax_middle(%x: tensor<3x20x7xf32>) -> tensor<3x20x7xf32> {
  %e = tensor.empty() : tensor<3x20x7xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<3x20x7xf32>) outs(%e : tensor<3x20x7xf32>) -> tensor<3x20x7xf32>
  return %r : tensor<3x20x7xf32>
}
