// A public function whose name the runtime cannot list.
func.func @"my model"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
