func.func @max_pool_nhwc(%x: tensor<2x8x8x3xf32>) -> tensor<2x4x4x3xf32> {
  %lowest = arith.constant -3.4028235e38 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x4x4x3xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<2x4x4x3xf32>) -> tensor<2x4x4x3xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<2x8x8x3xf32>, tensor<2x2xf32>) outs(%f : tensor<2x4x4x3xf32>) -> tensor<2x4x4x3xf32>
  return %r : tensor<2x4x4x3xf32>
}

func.func @tosa_avg_pool(%x: tensor<1x6x6x4xf32>) -> tensor<1x2x2x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.avg_pool2d %x, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 3, 3>}
      : (tensor<1x6x6x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x4xf32>
  return %0 : tensor<1x2x2x4xf32>
}

func.func @tosa_max_pool_padded(%x: tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
      : (tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}
