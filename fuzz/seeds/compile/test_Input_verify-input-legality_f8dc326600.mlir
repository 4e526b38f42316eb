// A constant tensor.dim index outside the rank: undefined, so refused.
func.func @dim_out_of_range(%a: tensor<?x4xf32>) -> index {
  %c = arith.constant -1 : index
  %d = tensor.dim %a, %c : tensor<?x4xf32>
  return %d : index
}
