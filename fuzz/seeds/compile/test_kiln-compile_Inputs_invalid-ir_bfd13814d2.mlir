func.func @f(%a: tensor<4xf32>) -> tensor<8xf32> {
  return %a : tensor<4xf32>
}
