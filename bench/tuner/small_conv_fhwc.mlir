// A small space for bench/tuner_validation.py: a 3x3 convolution of 16
// channels to 16 on 32 4x4 images (NHWC, FHWC; 35 configs on the Zen 3 VM).
func.func @main(%x: tensor<32x6x6x16xf32>, %w: tensor<16x3x3x16xf32>) -> tensor<32x4x4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x4x4x16xf32>) -> tensor<32x4x4x16xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<32x6x6x16xf32>, tensor<16x3x3x16xf32>) outs(%f : tensor<32x4x4x16xf32>) -> tensor<32x4x4x16xf32>
  return %c : tensor<32x4x4x16xf32>
}
