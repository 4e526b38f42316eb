// A small space for bench/tuner_validation.py: a 3x3 convolution of 16
// channels to 8 on 64 4x4 images (NHWC, HWCF; 11 configs on the Zen 3 VM).
func.func @main(%x: tensor<64x6x6x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<64x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x4x4x8xf32>) -> tensor<64x4x4x8xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<64x6x6x16xf32>, tensor<3x3x16x8xf32>) outs(%f : tensor<64x4x4x8xf32>) -> tensor<64x4x4x8xf32>
  return %c : tensor<64x4x4x8xf32>
}
