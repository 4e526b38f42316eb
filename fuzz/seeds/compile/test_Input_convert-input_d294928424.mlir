// Programs without TOSA are left alone.
func.func @linalg_only(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
