// RUN: %e2e %s

// MobileNetV2's pointwise convolution 960>320 at 7x7, with bias and ReLU,
// against numpy, as the heuristic configures it: where L2 holds 1 MB or
// more, workgroups of every row by one panel of 32 output channels, read
// in place (seven strips, too few to copy it).

// CASE: pointwise_960_320_bias_relu
// INPUT: x = rand(1, 7, 7, 960)
// INPUT: w = rand(1, 1, 960, 320)
// INPUT: b = rand(320)
// REFERENCE: np.maximum(np.einsum("nhwc,cf->nhwf", x.astype(np.float64), w[0, 0].astype(np.float64)) + b, 0)
// TOLERANCE: 1e-4
func.func @pointwise_960_320_bias_relu(%x: tensor<1x7x7x960xf32>, %w: tensor<1x1x960x320xf32>, %b: tensor<320xf32>) -> tensor<1x7x7x320xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x320xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x320xf32>) -> tensor<1x7x7x320xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x7x7x960xf32>, tensor<1x1x960x320xf32>) outs(%f : tensor<1x7x7x320xf32>) -> tensor<1x7x7x320xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x7x7x320xf32>, tensor<320xf32>) outs(%e : tensor<1x7x7x320xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x7x320xf32>
  return %r : tensor<1x7x7x320xf32>
}
