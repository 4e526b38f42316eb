// a + b and a * b: the add-to-sub tool turns the addition into a
// subtraction, which the numbers show.
func.func @add_mul(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = arith.addf %a, %b : tensor<4xf32>
  %m = arith.mulf %a, %b : tensor<4xf32>
  return %s, %m : tensor<4xf32>, tensor<4xf32>
}
