func.func @conv2d_nhwc_hwcf(%x: tensor<2x10x9x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<2x8x7x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x7x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x7x8xf32>) -> tensor<2x8x7x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x9x3xf32>, tensor<3x3x3x8xf32>) outs(%f : tensor<2x8x7x8xf32>) -> tensor<2x8x7x8xf32>
  return %r : tensor<2x8x7x8xf32>
}

// Strided, in NCHW / FCHW layout.
func.func @conv2d_nchw_fchw(%x: tensor<1x4x11x11xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x5x5xf32>) -> tensor<1x6x5x5xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x11x11xf32>, tensor<6x4x3x3xf32>) outs(%f : tensor<1x6x5x5xf32>) -> tensor<1x6x5x5xf32>
  return %r : tensor<1x6x5x5xf32>
}

// TOSA conv2d with padding and bias, then ReLU.
func.func @tosa_conv2d(%x: tensor<1x8x8x2xf32>, %w: tensor<4x3x3x2xf32>, %bias: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<1x8x8x2xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x4xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32} : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %1 : tensor<1x8x8x4xf32>
}
