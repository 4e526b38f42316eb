// RUN: %e2e %s --compile-arg=--kiln-accumulate-narrow-floats-in-f32=false

// A grouped convolution in f16 that keeps its f16 accumulation (the flag
// above): 32 lanes of f16 take eight groups of 4 channels, each pixel's
// run of the eight groups' 4 input channels 32 values. Accumulated in f16,
// the sums of 36 products are a few f16 ulps off the float64 reference.

// SETUP: def gconv(x, w):
// SETUP:     # x: N x H x W x G x C, w: G x F x KH x KW x C -> N x OH x OW x G x F
// SETUP:     x = x.astype(np.float64)
// SETUP:     n, h, wd, g, c = x.shape
// SETUP:     kh, kw = w.shape[2], w.shape[3]
// SETUP:     oh, ow = h - kh + 1, wd - kw + 1
// SETUP:     out = np.zeros((n, oh, ow, g, w.shape[1]))
// SETUP:     for i in range(kh):
// SETUP:         for j in range(kw):
// SETUP:             out += np.einsum("nhwgc,gfc->nhwgf", x[:, i:i + oh, j:j + ow], w[:, :, i, j, :].astype(np.float64))
// SETUP:     return out

// CASE: f16_groups_of_4
// INPUT: x = (rand(1, 6, 20, 16, 4) - 0.5).astype(np.float16)
// INPUT: w = (rand(16, 4, 3, 3, 4) - 0.5).astype(np.float16)
// REFERENCE: gconv(x, w).astype(np.float16)
// TOLERANCE: 1e-2
func.func @f16_groups_of_4(%x: tensor<1x6x20x16x4xf16>, %w: tensor<16x4x3x3x4xf16>) -> tensor<1x4x18x16x4xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x4x18x16x4xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x4x18x16x4xf16>) -> tensor<1x4x18x16x4xf16>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x20x16x4xf16>, tensor<16x4x3x3x4xf16>) outs(%f : tensor<1x4x18x16x4xf16>) -> tensor<1x4x18x16x4xf16>
  return %c : tensor<1x4x18x16x4xf16>
}
