func.func @dim_past_rank(%a: tensor<?x4xf32>) -> index {
  %c = arith.constant 2 : index
  %d = tensor.dim %a, %c : tensor<?x4xf32>
  return %d : index
}
