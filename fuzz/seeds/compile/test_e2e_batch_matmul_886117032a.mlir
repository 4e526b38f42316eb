func.func @batch_matmul(%a: tensor<3x17x40xf32>, %b: tensor<3x40x23xf32>) -> tensor<3x17x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x17x40xf32>, tensor<3x40x23xf32>) outs(%f : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  return %r : tensor<3x17x23xf32>
}

// The same through TOSA, with a bias.
func.func @tosa_matmul_add(%a: tensor<2x9x16xf32>, %b: tensor<2x16x12xf32>, %bias: tensor<1x1x12xf32>) -> tensor<2x9x12xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x9x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x9x12xf32>
  %1 = tosa.add %0, %bias : (tensor<2x9x12xf32>, tensor<1x1x12xf32>) -> tensor<2x9x12xf32>
  return %1 : tensor<2x9x12xf32>
}
