// MLIR 22's parser of linalg.broadcast stores the `dimensions` it failed to
// parse (a null attribute) and crashes; the compile fuzzer found it.
func.func @f(%b: tensor<4xf32>, %e: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.broadcast ins(%b : tensor<4xf32>) outs(%e : tensor<2x4xf32>) dimensions = 5
  return %r : tensor<2x4xf32>
}
