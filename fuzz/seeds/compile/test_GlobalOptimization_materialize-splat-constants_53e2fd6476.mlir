// Constants that are not splats, and scalars, are left alone.
func.func @others() -> (tensor<2xf32>, f32) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant 3.0 : f32
  return %a, %b : tensor<2xf32>, f32
}
