func.func @unranked(%a: tensor<4xf32>) -> tensor<*xf32> {
  %c = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  return %c : tensor<*xf32>
}
