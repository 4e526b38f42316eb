// RUN: %e2e %s --compile-arg=--kiln-tuning-spec=%S/Inputs/force_convolution_pipeline.mlir
// RUN: %e2e %s

// Strides of 2^30: one output pixel, whose window is the whole image. The
// heuristic sends such convolutions to cpu-default; a spec that forces the
// convolution pipeline on them compiles too (the pipeline's index
// arithmetic on strides this large once kept canonicalization from ever
// finishing), with and without padding fused into the dispatch.

// CASE: huge_stride
// INPUT: x = rand(1, 3, 3, 8)
// INPUT: w = rand(3, 3, 8, 8)
// REFERENCE: np.einsum("hwc,hwcf->f", x[0], w).reshape(1, 1, 1, 8)
func.func @huge_stride(%x: tensor<1x3x3x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x1x1x8xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1073741824> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x3x8xf32>, tensor<3x3x8x8xf32>) outs(%c : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}

// CASE: huge_stride_padded
// INPUT: x = rand(1, 1, 1, 8)
// INPUT: w = rand(3, 3, 8, 8)
// REFERENCE: (x[0, 0, 0] @ w[1, 1]).reshape(1, 1, 1, 8)
func.func @huge_stride_padded(%x: tensor<1x1x1x8xf32>, %w: tensor<3x3x8x8xf32>) -> tensor<1x1x1x8xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %i: index, %d: index):
    tensor.yield %z : f32
  } : tensor<1x1x1x8xf32> to tensor<1x3x3x8xf32>
  %e = tensor.empty() : tensor<1x1x1x8xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1073741824> : tensor<2xi64>}
      ins(%p, %w : tensor<1x3x3x8xf32>, tensor<3x3x8x8xf32>) outs(%c : tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}
