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

// Long rows (full vectors of partial results and a tail), values far from
// zero (the maximum must be subtracted first), a row count that is not a
// multiple of the workgroup's, given at run time; one row of -inf but one.
// SETUP: def softmax(x):
// SETUP:     e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
// SETUP:     return e / e.sum(axis=1, keepdims=True)
// SETUP: def with_spike(x):
// SETUP:     x[3, :] = -np.inf
// SETUP:     x[3, 7] = 1.0
// SETUP:     return x
// CASE: softmax_long_rows
// INPUT: x = with_spike(rand(37, 1000, low=-80.0, high=80.0))
// REFERENCE: softmax(x)
// TOLERANCE: 1e-5
func.func @softmax_long_rows(%x: tensor<?x1000xf32>) -> tensor<?x1000xf32> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x1000xf32>
  %e = tensor.empty(%rows) : tensor<?x1000xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x1000xf32>) outs(%e : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %r : tensor<?x1000xf32>
}
