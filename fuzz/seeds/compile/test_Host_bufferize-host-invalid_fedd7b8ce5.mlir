// The module's metadata is text: names with spaces cannot be listed.
func.func @"my model"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
