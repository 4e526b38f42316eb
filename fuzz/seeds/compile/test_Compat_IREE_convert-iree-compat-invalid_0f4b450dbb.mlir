func.func @complex(%a: tensor<2xcomplex<f32>>) {
  check.expect_eq(%a, %a) : tensor<2xcomplex<f32>>
  return
}
