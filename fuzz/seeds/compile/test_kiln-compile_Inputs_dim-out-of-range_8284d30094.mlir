func.func @dim(%a: tensor<?x4xf32>) -> tensor<index> {
  %c = arith.constant -1 : index
  %d = tensor.dim %a, %c : tensor<?x4xf32>
  %t = tensor.from_elements %d : tensor<index>
  return %t : tensor<index>
}
