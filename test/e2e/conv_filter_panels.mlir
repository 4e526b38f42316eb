// RUN: %e2e %s --compile-arg=--kiln-tuning-spec=%S/Inputs/filter_panel_workgroups.mlir

// Convolutions whose workgroups copy their panel of the filter into
// contiguous memory (8 rows of 8 pixels per workgroup, filter rows of 128
// to 160 channels), against numpy: padding with bias and ReLU, and a
// dilation; and a batch with stride 2 whose 144 channels leave a partial
// last panel, where the panels are read in place.

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

// CASE: panel_pad_bias_relu
// INPUT: x = rand(1, 8, 8, 40)
// INPUT: w = rand(3, 3, 40, 160)
// INPUT: b = rand(160)
// REFERENCE: np.maximum(conv(x, w, pad=1) + b, 0)
// TOLERANCE: 1e-4
func.func @panel_pad_bias_relu(%x: tensor<1x8x8x40xf32>, %w: tensor<3x3x40x160xf32>, %b: tensor<160xf32>) -> tensor<1x8x8x160xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x40xf32> to tensor<1x10x10x40xf32>
  %e = tensor.empty() : tensor<1x8x8x160xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x160xf32>) -> tensor<1x8x8x160xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x40xf32>, tensor<3x3x40x160xf32>) outs(%f : tensor<1x8x8x160xf32>) -> tensor<1x8x8x160xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x8x8x160xf32>, tensor<160xf32>) outs(%e : tensor<1x8x8x160xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x160xf32>
  return %r : tensor<1x8x8x160xf32>
}

// 144 channels: four whole panels and one of 16, so a workgroup's panel
// width is known only at run time, and no panel is copied.
// CASE: panel_batch_stride2
// INPUT: x = rand(2, 17, 17, 24)
// INPUT: w = rand(3, 3, 24, 144)
// REFERENCE: conv(x, w, stride=2)
// TOLERANCE: 1e-4
func.func @panel_batch_stride2(%x: tensor<2x17x17x24xf32>, %w: tensor<3x3x24x144xf32>) -> tensor<2x8x8x144xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x144xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x144xf32>) -> tensor<2x8x8x144xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x17x17x24xf32>, tensor<3x3x24x144xf32>) outs(%f : tensor<2x8x8x144xf32>) -> tensor<2x8x8x144xf32>
  return %c : tensor<2x8x8x144xf32>
}

// CASE: panel_dilated
// INPUT: x = rand(1, 12, 12, 16)
// INPUT: w = rand(3, 3, 16, 128)
// REFERENCE: conv(x, w, dilation=2)
// TOLERANCE: 1e-4
func.func @panel_dilated(%x: tensor<1x12x12x16xf32>, %w: tensor<3x3x16x128xf32>) -> tensor<1x8x8x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x128xf32>) -> tensor<1x8x8x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x12x12x16xf32>, tensor<3x3x16x128xf32>) outs(%f : tensor<1x8x8x128xf32>) -> tensor<1x8x8x128xf32>
  return %c : tensor<1x8x8x128xf32>
}
