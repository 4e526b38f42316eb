// Returns a 4x1000 buffer, then one of N x 1000 f32, both filled with X:
// the second allocation fails for a large enough N.
func.func @fill_rows(%n: tensor<i64>, %x: tensor<f32>) -> (tensor<4x1000xf32>, tensor<?x1000xf32>) {
  %count = tensor.extract %n[] : tensor<i64>
  %rows = arith.index_cast %count : i64 to index
  %value = tensor.extract %x[] : tensor<f32>
  %small_init = tensor.empty() : tensor<4x1000xf32>
  %small = linalg.fill ins(%value : f32) outs(%small_init : tensor<4x1000xf32>) -> tensor<4x1000xf32>
  %init = tensor.empty(%rows) : tensor<?x1000xf32>
  %filled = linalg.fill ins(%value : f32) outs(%init : tensor<?x1000xf32>) -> tensor<?x1000xf32>
  return %small, %filled : tensor<4x1000xf32>, tensor<?x1000xf32>
}
