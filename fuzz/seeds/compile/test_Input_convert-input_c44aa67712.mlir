func.func @tosa_matmul_add(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>, %bias: tensor<1x1x16xf32>) -> tensor<1x4x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  %1 = tosa.add %0, %bias : (tensor<1x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x16xf32>
  return %1 : tensor<1x4x16xf32>
}
