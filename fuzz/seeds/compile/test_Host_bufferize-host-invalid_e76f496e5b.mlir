// The runtime passes tensors only.
func.func @scalar(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
