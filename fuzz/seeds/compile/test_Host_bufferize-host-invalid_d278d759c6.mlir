// The runtime's buffers hold at most 16 dimensions.
func.func @rank17(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32> {
  return %a : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>
}
