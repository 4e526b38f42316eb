// RUN: %e2e %s --compile-arg=--kiln-tuning-spec=%S/Inputs/batched_filter_panel_workgroups.mlir

// Convolutions whose workgroups span several images of the batch and copy
// their panel of the filter once for all of them, against numpy: a batch
// of 4 in workgroups of 2, 13 pixels in strips of 8 and a peeled 5, filter
// rows of 128 channels (512 bytes apart), with padding, bias and ReLU; and
// a stride of 2 over a batch of 5, whose last workgroup takes 1 image (a
// shape known only at run time: its panel is read in place).

// SETUP: def windows(x, kh, kw, stride, dilation):
// SETUP:     n, h, w, c = x.shape
// SETUP:     oh = (h - dilation * (kh - 1) - 1) // stride + 1
// SETUP:     ow = (w - dilation * (kw - 1) - 1) // stride + 1
// SETUP:     out = np.empty((n, oh, ow, kh, kw, c), x.dtype)
// SETUP:     for i in range(kh):
// SETUP:         for j in range(kw):
// SETUP:             out[:, :, :, i, j, :] = x[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride, j * dilation:j * dilation + stride * (ow - 1) + 1:stride, :]
// SETUP:     return out
// SETUP: def conv(x, w, stride=1, dilation=1, pad=0):
// SETUP:     x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0))).astype(np.float64)
// SETUP:     return np.einsum("nhwijc,ijcf->nhwf", windows(x, w.shape[0], w.shape[1], stride, dilation), w.astype(np.float64))

// CASE: batch_panel_pad_bias_relu
// INPUT: x = rand(4, 7, 13, 24)
// INPUT: w = rand(3, 3, 24, 128)
// INPUT: b = rand(128)
// REFERENCE: np.maximum(conv(x, w, pad=1) + b, 0)
// TOLERANCE: 1e-4
func.func @batch_panel_pad_bias_relu(%x: tensor<4x7x13x24xf32>, %w: tensor<3x3x24x128xf32>, %b: tensor<128xf32>) -> tensor<4x7x13x128xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<4x7x13x24xf32> to tensor<4x9x15x24xf32>
  %e = tensor.empty() : tensor<4x7x13x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x7x13x128xf32>) -> tensor<4x7x13x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<4x9x15x24xf32>, tensor<3x3x24x128xf32>) outs(%f : tensor<4x7x13x128xf32>) -> tensor<4x7x13x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<4x7x13x128xf32>, tensor<128xf32>) outs(%e : tensor<4x7x13x128xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x7x13x128xf32>
  return %r : tensor<4x7x13x128xf32>
}

// CASE: batch_panel_stride2
// INPUT: x = rand(5, 15, 17, 16)
// INPUT: w = rand(3, 3, 16, 160)
// REFERENCE: conv(x, w, stride=2)
// TOLERANCE: 1e-4
func.func @batch_panel_stride2(%x: tensor<5x15x17x16xf32>, %w: tensor<3x3x16x160xf32>) -> tensor<5x7x8x160xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x7x8x160xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x7x8x160xf32>) -> tensor<5x7x8x160xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<5x15x17x16xf32>, tensor<3x3x16x160xf32>) outs(%f : tensor<5x7x8x160xf32>) -> tensor<5x7x8x160xf32>
  return %c : tensor<5x7x8x160xf32>
}
