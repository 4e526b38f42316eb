// RUN: %e2e %s

// Convolutions and pooling through the cpu-convolution pipeline, against
// numpy: odd widths and channel counts (partial register tiles), strides,
// dilations, padding, batches, depthwise, 1x1, and fused bias, ReLU and
// residual additions.

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
// SETUP: def depthwise(x, w, stride=1, pad=0):
// SETUP:     x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0))).astype(np.float64)
// SETUP:     return np.einsum("nhwijc,ijc->nhwc", windows(x, w.shape[0], w.shape[1], stride, 1), w.astype(np.float64))

// A ResNet block's convolution: padding, bias and ReLU in one dispatch;
// 14 pixels (register tiles of 7), 48 channels (a panel of 32 and 16).
// CASE: conv3x3_pad_bias_relu
// INPUT: x = rand(1, 14, 14, 24)
// INPUT: w = rand(3, 3, 24, 48)
// INPUT: b = rand(48)
// REFERENCE: np.maximum(conv(x, w, pad=1) + b, 0)
// TOLERANCE: 1e-4
func.func @conv3x3_pad_bias_relu(%x: tensor<1x14x14x24xf32>, %w: tensor<3x3x24x48xf32>, %b: tensor<48xf32>) -> tensor<1x14x14x48xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x14x14x24xf32> to tensor<1x16x16x24xf32>
  %e = tensor.empty() : tensor<1x14x14x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x48xf32>) -> tensor<1x14x14x48xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x16x16x24xf32>, tensor<3x3x24x48xf32>) outs(%f : tensor<1x14x14x48xf32>) -> tensor<1x14x14x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x14x14x48xf32>, tensor<48xf32>) outs(%e : tensor<1x14x14x48xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x14x14x48xf32>
  return %r : tensor<1x14x14x48xf32>
}

// A residual addition after the convolution, batch 2, 9 pixels wide (no
// divisor of 9 from 4 to 8: a register tile of 8 and a peeled one of 1),
// 5 channels (a vector narrower than the register).
// CASE: conv3x3_residual_batch
// INPUT: x = rand(2, 11, 11, 7)
// INPUT: w = rand(3, 3, 7, 5)
// INPUT: r = rand(2, 9, 9, 5)
// REFERENCE: conv(x, w) + r
// TOLERANCE: 1e-4
func.func @conv3x3_residual_batch(%x: tensor<2x11x11x7xf32>, %w: tensor<3x3x7x5xf32>, %res: tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x9x9x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x11x11x7xf32>, tensor<3x3x7x5xf32>) outs(%f : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  %r = linalg.add ins(%c, %res : tensor<2x9x9x5xf32>, tensor<2x9x9x5xf32>) outs(%e : tensor<2x9x9x5xf32>) -> tensor<2x9x9x5xf32>
  return %r : tensor<2x9x9x5xf32>
}

// ResNet's stem: 7x7, stride 2, padding 3, three input channels.
// CASE: conv7x7_stride2
// INPUT: x = rand(1, 32, 32, 3)
// INPUT: w = rand(7, 7, 3, 64)
// REFERENCE: conv(x, w, stride=2, pad=3)
// TOLERANCE: 1e-4
func.func @conv7x7_stride2(%x: tensor<1x32x32x3xf32>, %w: tensor<7x7x3x64xf32>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x32x32x3xf32> to tensor<1x38x38x3xf32>
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x38x38x3xf32>, tensor<7x7x3x64xf32>) outs(%f : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %c : tensor<1x16x16x64xf32>
}

// Dilation 2, stride 1.
// CASE: conv3x3_dilated
// INPUT: x = rand(1, 12, 13, 8)
// INPUT: w = rand(3, 3, 8, 16)
// REFERENCE: conv(x, w, dilation=2)
// TOLERANCE: 1e-4
func.func @conv3x3_dilated(%x: tensor<1x12x13x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x8x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x9x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x9x16xf32>) -> tensor<1x8x9x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x12x13x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x8x9x16xf32>) -> tensor<1x8x9x16xf32>
  return %c : tensor<1x8x9x16xf32>
}

// A pointwise (1x1) convolution, stride 2 as in ResNet's downsampling.
// CASE: conv1x1_stride2
// INPUT: x = rand(1, 14, 14, 64)
// INPUT: w = rand(1, 1, 64, 96)
// REFERENCE: conv(x, w, stride=2)
// TOLERANCE: 1e-4
func.func @conv1x1_stride2(%x: tensor<1x14x14x64xf32>, %w: tensor<1x1x64x96xf32>) -> tensor<1x7x7x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x7x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x14x14x64xf32>, tensor<1x1x64x96xf32>) outs(%f : tensor<1x7x7x96xf32>) -> tensor<1x7x7x96xf32>
  return %c : tensor<1x7x7x96xf32>
}

// MobileNetV2's depthwise convolutions: 3x3, stride 1 and 2, padded, with
// ReLU6.
// CASE: depthwise3x3_relu6
// INPUT: x = rand(1, 10, 10, 40)
// INPUT: w = rand(3, 3, 40)
// REFERENCE: np.clip(depthwise(x, w, pad=1), 0, 6)
// TOLERANCE: 1e-4
func.func @depthwise3x3_relu6(%x: tensor<1x10x10x40xf32>, %w: tensor<3x3x40xf32>) -> tensor<1x10x10x40xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x10x10x40xf32> to tensor<1x12x12x40xf32>
  %e = tensor.empty() : tensor<1x10x10x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x10x40xf32>) -> tensor<1x10x10x40xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x12x12x40xf32>, tensor<3x3x40xf32>) outs(%f : tensor<1x10x10x40xf32>) -> tensor<1x10x10x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x10x10x40xf32>) outs(%e : tensor<1x10x10x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x10x10x40xf32>
  return %r : tensor<1x10x10x40xf32>
}

// CASE: depthwise3x3_stride2
// INPUT: x = rand(2, 9, 9, 16)
// INPUT: w = rand(3, 3, 16)
// REFERENCE: depthwise(x, w, stride=2, pad=1)
// TOLERANCE: 1e-4
func.func @depthwise3x3_stride2(%x: tensor<2x9x9x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<2x5x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x9x9x16xf32> to tensor<2x11x11x16xf32>
  %e = tensor.empty() : tensor<2x5x5x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x11x11x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<2x5x5x16xf32>) -> tensor<2x5x5x16xf32>
  return %c : tensor<2x5x5x16xf32>
}

// Max pooling 3x3 stride 2 (ResNet's), padded with -inf, and average
// pooling 2x2 as a sum then a scale.
// CASE: max_pool3x3_stride2
// INPUT: x = rand(1, 12, 12, 20)
// REFERENCE: windows(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf), 3, 3, 2, 1).max(axis=(3, 4))
func.func @max_pool3x3_stride2(%x: tensor<1x12x12x20xf32>) -> tensor<1x6x6x20xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %lowest : f32
  } : tensor<1x12x12x20xf32> to tensor<1x14x14x20xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x6x6x20xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x6x6x20xf32>) -> tensor<1x6x6x20xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<1x14x14x20xf32>, tensor<3x3xf32>) outs(%f : tensor<1x6x6x20xf32>) -> tensor<1x6x6x20xf32>
  return %r : tensor<1x6x6x20xf32>
}

// CASE: avg_pool2x2
// INPUT: x = rand(2, 8, 10, 24)
// REFERENCE: windows(x, 2, 2, 2, 1).mean(axis=(3, 4))
// TOLERANCE: 1e-5
func.func @avg_pool2x2(%x: tensor<2x8x10x24xf32>) -> tensor<2x4x5x24xf32> {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x4x5x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x24xf32>) -> tensor<2x4x5x24xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %window : tensor<2x8x10x24xf32>, tensor<2x2xf32>) outs(%f : tensor<2x4x5x24xf32>) -> tensor<2x4x5x24xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x4x5x24xf32>) outs(%e : tensor<2x4x5x24xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %quarter : f32
    linalg.yield %m : f32
  } -> tensor<2x4x5x24xf32>
  return %r : tensor<2x4x5x24xf32>
}

// Padding only after the image (TensorFlow's SAME at stride 2), and rows too
// wide for one workgroup's image tile (3 x 49 x 128 floats is over 64 KiB):
// workgroups take strips of the width, each padding its own part.
// CASE: depthwise_same_stride2_strips
// INPUT: x = rand(1, 16, 48, 128)
// INPUT: w = rand(3, 3, 128)
// REFERENCE: np.einsum("nhwijc,ijc->nhwc", windows(np.pad(x, ((0, 0), (0, 1), (0, 1), (0, 0))).astype(np.float64), 3, 3, 2, 1), w.astype(np.float64))
// TOLERANCE: 1e-4
func.func @depthwise_same_stride2_strips(%x: tensor<1x16x48x128xf32>, %w: tensor<3x3x128xf32>) -> tensor<1x8x24x128xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x48x128xf32> to tensor<1x17x49x128xf32>
  %e = tensor.empty() : tensor<1x8x24x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x24x128xf32>) -> tensor<1x8x24x128xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x17x49x128xf32>, tensor<3x3x128xf32>) outs(%f : tensor<1x8x24x128xf32>) -> tensor<1x8x24x128xf32>
  return %c : tensor<1x8x24x128xf32>
}

// Odd sizes: 100 output channels (three panels of 32 and one of 4) and 29
// pixels (register tiles of 8 and a peeled one of 5), both vectorized.
// CASE: conv3x3_odd_sizes
// INPUT: x = rand(1, 5, 29, 12)
// INPUT: w = rand(3, 3, 12, 100)
// REFERENCE: conv(x, w, pad=1)
// TOLERANCE: 1e-4
func.func @conv3x3_odd_sizes(%x: tensor<1x5x29x12xf32>, %w: tensor<3x3x12x100xf32>) -> tensor<1x5x29x100xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x5x29x12xf32> to tensor<1x7x31x12xf32>
  %e = tensor.empty() : tensor<1x5x29x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x29x100xf32>) -> tensor<1x5x29x100xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x7x31x12xf32>, tensor<3x3x12x100xf32>) outs(%f : tensor<1x5x29x100xf32>) -> tensor<1x5x29x100xf32>
  return %c : tensor<1x5x29x100xf32>
}

// Rows of four register strips or more pad per strip (the strips away
// from the borders read the image in place): max pooling 3x3 stride 2 on
// 70 pixels (35 outputs: five strips of 7) and 24 channels (a vector and
// a half), batch 2.
// CASE: max_pool_padded_per_strip
// INPUT: x = rand(2, 9, 70, 24)
// REFERENCE: windows(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf), 3, 3, 2, 1).max(axis=(3, 4))
func.func @max_pool_padded_per_strip(%x: tensor<2x9x70x24xf32>) -> tensor<2x5x35x24xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %lowest : f32
  } : tensor<2x9x70x24xf32> to tensor<2x11x72x24xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<2x5x35x24xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<2x5x35x24xf32>) -> tensor<2x5x35x24xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<2x11x72x24xf32>, tensor<3x3xf32>) outs(%f : tensor<2x5x35x24xf32>) -> tensor<2x5x35x24xf32>
  return %r : tensor<2x5x35x24xf32>
}

// A dilated depthwise convolution padded per strip: 3x3 with dilation 2
// and padding 2 on 40 pixels (five strips of 8, the first and last at
// the borders).
// CASE: depthwise_dilated_per_strip
// INPUT: x = rand(1, 6, 40, 20)
// INPUT: w = rand(3, 3, 20)
// REFERENCE: np.einsum("nhwijc,ijc->nhwc", windows(np.pad(x, ((0, 0), (2, 2), (2, 2), (0, 0))).astype(np.float64), 3, 3, 1, 2), w.astype(np.float64))
// TOLERANCE: 1e-4
func.func @depthwise_dilated_per_strip(%x: tensor<1x6x40x20xf32>, %w: tensor<3x3x20xf32>) -> tensor<1x6x40x20xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x6x40x20xf32> to tensor<1x10x44x20xf32>
  %e = tensor.empty() : tensor<1x6x40x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x40x20xf32>) -> tensor<1x6x40x20xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x44x20xf32>, tensor<3x3x20xf32>) outs(%f : tensor<1x6x40x20xf32>) -> tensor<1x6x40x20xf32>
  return %c : tensor<1x6x40x20xf32>
}

// Padding wider than the window: the outermost rows and columns of the
// output see only padding (a strip whose window lies entirely in it is a
// fill of the padding value): sum pooling 2x2 over padding 3 of 0.5, 41
// outputs (five strips of 8 and a peeled one of 1).
// CASE: sum_pool_padding_beyond_window
// INPUT: x = rand(1, 4, 36, 16)
// REFERENCE: windows(np.pad(x, ((0, 0), (3, 3), (3, 3), (0, 0)), constant_values=0.5).astype(np.float64), 2, 2, 1, 1).sum(axis=(3, 4))
// TOLERANCE: 1e-5
func.func @sum_pool_padding_beyond_window(%x: tensor<1x4x36x16xf32>) -> tensor<1x9x41x16xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %half : f32
  } : tensor<1x4x36x16xf32> to tensor<1x10x42x16xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x9x41x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x41x16xf32>) -> tensor<1x9x41x16xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %window : tensor<1x10x42x16xf32>, tensor<2x2xf32>) outs(%f : tensor<1x9x41x16xf32>) -> tensor<1x9x41x16xf32>
  return %r : tensor<1x9x41x16xf32>
}

// A filter larger than L2 on most CPUs (1.1 MiB, rows of 256 channels):
// the heuristic gives workgroups one panel of 32 output channels and all
// 8 rows where L2 is 1 MiB or less, and the pipeline copies each panel.
// CASE: conv3x3_filter_panels
// INPUT: x = rand(1, 8, 8, 128)
// INPUT: w = rand(3, 3, 128, 256)
// INPUT: b = rand(256)
// REFERENCE: np.maximum(conv(x, w, pad=1) + b, 0)
// TOLERANCE: 1e-4
func.func @conv3x3_filter_panels(%x: tensor<1x8x8x128xf32>, %w: tensor<3x3x128x256xf32>, %b: tensor<256xf32>) -> tensor<1x8x8x256xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x128xf32> to tensor<1x10x10x128xf32>
  %e = tensor.empty() : tensor<1x8x8x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x256xf32>) -> tensor<1x8x8x256xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x128xf32>, tensor<3x3x128x256xf32>) outs(%f : tensor<1x8x8x256xf32>) -> tensor<1x8x8x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x8x8x256xf32>, tensor<256xf32>) outs(%e : tensor<1x8x8x256xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x8x256xf32>
  return %r : tensor<1x8x8x256xf32>
}

// An epilogue of three ops (bias, residual, ReLU6 clamp) taken into each
// register tile, on odd sizes: 100 output channels (panels of 32 and a
// peeled one of 4), 13 pixels (register tiles of 8 and a peeled one of 5),
// batch 2.
// CASE: conv_epilogue_chain_odd
// INPUT: x = rand(2, 3, 15, 9)
// INPUT: w = rand(3, 3, 9, 100)
// INPUT: b = rand(100) - 0.5
// INPUT: r = rand(2, 1, 13, 100) * 4 - 6
// REFERENCE: np.clip(conv(x, w) + b + r, 0, 6)
// TOLERANCE: 1e-4
func.func @conv_epilogue_chain_odd(%x: tensor<2x3x15x9xf32>, %w: tensor<3x3x9x100xf32>, %b: tensor<100xf32>, %r: tensor<2x1x13x100xf32>) -> tensor<2x1x13x100xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<2x1x13x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x1x13x100xf32>) -> tensor<2x1x13x100xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x15x9xf32>, tensor<3x3x9x100xf32>) outs(%f : tensor<2x1x13x100xf32>) -> tensor<2x1x13x100xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x1x13x100xf32>, tensor<100xf32>) outs(%e : tensor<2x1x13x100xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    linalg.yield %s : f32
  } -> tensor<2x1x13x100xf32>
  %summed = linalg.add ins(%biased, %r : tensor<2x1x13x100xf32>, tensor<2x1x13x100xf32>) outs(%e : tensor<2x1x13x100xf32>) -> tensor<2x1x13x100xf32>
  %clamped = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%summed : tensor<2x1x13x100xf32>) outs(%e : tensor<2x1x13x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %lo = arith.maximumf %a, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<2x1x13x100xf32>
  return %clamped : tensor<2x1x13x100xf32>
}

// A convolution's result returned as it is and through a ReLU: the
// dispatch writes both, and the ReLU is not taken into the convolution's
// register tiles (which would compute them twice).
// CASE: conv_result_used_twice
// INPUT: x = rand(1, 4, 19, 16) - 0.5
// INPUT: w = rand(3, 3, 16, 40) - 0.5
// REFERENCE: conv(x, w, pad=1)
// REFERENCE: np.maximum(conv(x, w, pad=1), 0)
// TOLERANCE: 1e-4
func.func @conv_result_used_twice(%x: tensor<1x4x19x16xf32>, %w: tensor<3x3x16x40xf32>) -> (tensor<1x4x19x40xf32>, tensor<1x4x19x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x19x16xf32> to tensor<1x6x21x16xf32>
  %e = tensor.empty() : tensor<1x4x19x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x19x40xf32>) -> tensor<1x4x19x40xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x6x21x16xf32>, tensor<3x3x16x40xf32>) outs(%f : tensor<1x4x19x40xf32>) -> tensor<1x4x19x40xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x4x19x40xf32>) outs(%e : tensor<1x4x19x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x19x40xf32>
  return %c, %relu : tensor<1x4x19x40xf32>, tensor<1x4x19x40xf32>
}

// An epilogue that ends in a narrower type: bias and ReLU in f32, the
// result stored as f16, all in the register tile; 21 pixels (register
// tiles of 8 and a peeled one of 5), 48 channels (32 and 16).
// CASE: conv_bias_relu_to_f16
// INPUT: x = rand(1, 3, 23, 8)
// INPUT: w = rand(3, 3, 8, 48) - 0.5
// INPUT: b = rand(48) - 0.5
// REFERENCE: np.maximum(conv(x, w) + b, 0).astype(np.float16)
// TOLERANCE: 2e-3
func.func @conv_bias_relu_to_f16(%x: tensor<1x3x23x8xf32>, %w: tensor<3x3x8x48xf32>, %b: tensor<48xf32>) -> tensor<1x1x21x48xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x21x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x21x48xf32>) -> tensor<1x1x21x48xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x23x8xf32>, tensor<3x3x8x48xf32>) outs(%f : tensor<1x1x21x48xf32>) -> tensor<1x1x21x48xf32>
  %h = tensor.empty() : tensor<1x1x21x48xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x1x21x48xf32>, tensor<48xf32>) outs(%h : tensor<1x1x21x48xf16>) {
  ^bb0(%a: f32, %bias: f32, %o: f16):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x1x21x48xf16>
  return %r : tensor<1x1x21x48xf16>
}

// A global average pool: register tiles of one pixel by 128 channels (8
// accumulators), 300 channels (two tiles and a peeled one of 44), the
// scale in the register tile.
// CASE: global_avg_pool_wide_tiles
// INPUT: x = rand(2, 5, 5, 300)
// REFERENCE: x.astype(np.float64).mean(axis=(1, 2), keepdims=True)
// TOLERANCE: 1e-5
func.func @global_avg_pool_wide_tiles(%x: tensor<2x5x5x300xf32>) -> tensor<2x1x1x300xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.04 : f32
  %window = tensor.empty() : tensor<5x5xf32>
  %e = tensor.empty() : tensor<2x1x1x300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x1x1x300xf32>) -> tensor<2x1x1x300xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %window : tensor<2x5x5x300xf32>, tensor<5x5xf32>) outs(%f : tensor<2x1x1x300xf32>) -> tensor<2x1x1x300xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<2x1x1x300xf32>) outs(%e : tensor<2x1x1x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %scale : f32
    linalg.yield %m : f32
  } -> tensor<2x1x1x300xf32>
  return %r : tensor<2x1x1x300xf32>
}

// Three output pixels to a row: register tiles of 3 pixels by 64
// channels (12 accumulators), 100 channels (a tile and a peeled 36).
// CASE: depthwise_three_pixels
// INPUT: x = rand(1, 5, 5, 100)
// INPUT: w = rand(3, 3, 100)
// REFERENCE: depthwise(x, w)
// TOLERANCE: 1e-5
func.func @depthwise_three_pixels(%x: tensor<1x5x5x100xf32>, %w: tensor<3x3x100xf32>) -> tensor<1x3x3x100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x3x100xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x100xf32>) -> tensor<1x3x3x100xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x5x100xf32>, tensor<3x3x100xf32>) outs(%f : tensor<1x3x3x100xf32>) -> tensor<1x3x3x100xf32>
  return %r : tensor<1x3x3x100xf32>
}

// Rows of 14 pixels by 4 vectors of channels: strips of 4 pixels and a
// peeled one of 2, the first and last at the padded borders (read row by
// row), the peeled one too. Depthwise 3x3 over 2x14x14x128, padding 1,
// and a 3x3/2 max pool over 27x27x64 padded 1 (14 outputs to a row) over
// negative values, where a padding of 0 would show.
// CASE: depthwise_14_wide_peeled
// INPUT: x = rand(2, 14, 14, 128)
// INPUT: w = rand(3, 3, 128)
// REFERENCE: depthwise(x, w, pad=1)
// TOLERANCE: 1e-5
func.func @depthwise_14_wide_peeled(%x: tensor<2x14x14x128xf32>, %w: tensor<3x3x128xf32>) -> tensor<2x14x14x128xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x14x14x128xf32> to tensor<2x16x16x128xf32>
  %e = tensor.empty() : tensor<2x14x14x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x16x16x128xf32>, tensor<3x3x128xf32>) outs(%f : tensor<2x14x14x128xf32>) -> tensor<2x14x14x128xf32>
  return %r : tensor<2x14x14x128xf32>
}

// CASE: max_pool_14_wide_peeled
// INPUT: x = rand(1, 27, 27, 64, low=-3.0, high=-1.0)
// REFERENCE: windows(np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf), 3, 3, 2, 1).max(axis=(3, 4))
func.func @max_pool_14_wide_peeled(%x: tensor<1x27x27x64xf32>) -> tensor<1x14x14x64xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %lowest : f32
  } : tensor<1x27x27x64xf32> to tensor<1x29x29x64xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<1x29x29x64xf32>, tensor<3x3xf32>) outs(%f : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  return %r : tensor<1x14x14x64xf32>
}

// Windows read row by row at the borders: a depthwise convolution with
// stride 2 and "same" padding (0 before, 1 after, as TensorFlow pads an
// even input), 52 pixels (26 outputs: three strips of 8 and a peeled one
// of 2), 20 channels (a vector of 16 and a peeled 4), batch 2, with bias
// and ReLU.
// CASE: depthwise_stride2_same_rows
// INPUT: x = rand(2, 7, 52, 20)
// INPUT: w = rand(3, 3, 20)
// INPUT: b = rand(20)
// REFERENCE: np.maximum(np.einsum("nhwijc,ijc->nhwc", windows(np.pad(x, ((0, 0), (0, 1), (0, 1), (0, 0))).astype(np.float64), 3, 3, 2, 1), w.astype(np.float64)) + b, 0)
// TOLERANCE: 1e-5
func.func @depthwise_stride2_same_rows(%x: tensor<2x7x52x20xf32>, %w: tensor<3x3x20xf32>, %b: tensor<20xf32>) -> tensor<2x3x26x20xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x7x52x20xf32> to tensor<2x8x53x20xf32>
  %e = tensor.empty() : tensor<2x3x26x20xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x26x20xf32>) -> tensor<2x3x26x20xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x8x53x20xf32>, tensor<3x3x20xf32>) outs(%f : tensor<2x3x26x20xf32>) -> tensor<2x3x26x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x3x26x20xf32>, tensor<20xf32>) outs(%e : tensor<2x3x26x20xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3x26x20xf32>
  return %r : tensor<2x3x26x20xf32>
}

// A stride-1 max pool over negative values, padded by 2 on every side of
// a 5x5 window: a padding of 0 read where -inf belongs would show as
// zeros along every border. 33 pixels (four strips of 8 and one of 1).
// CASE: max_pool_negative_rows
// INPUT: x = rand(1, 6, 33, 16, low=-3.0, high=-1.0)
// REFERENCE: windows(np.pad(x, ((0, 0), (2, 2), (2, 2), (0, 0)), constant_values=-np.inf), 5, 5, 1, 1).max(axis=(3, 4))
func.func @max_pool_negative_rows(%x: tensor<1x6x33x16xf32>) -> tensor<1x6x33x16xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %lowest : f32
  } : tensor<1x6x33x16xf32> to tensor<1x10x37x16xf32>
  %window = tensor.empty() : tensor<5x5xf32>
  %e = tensor.empty() : tensor<1x6x33x16xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x6x33x16xf32>) -> tensor<1x6x33x16xf32>
  %r = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %window : tensor<1x10x37x16xf32>, tensor<5x5xf32>) outs(%f : tensor<1x6x33x16xf32>) -> tensor<1x6x33x16xf32>
  return %r : tensor<1x6x33x16xf32>
}

// Padding along the channels as well: a window whose rows are not rows of
// the image is not read row by row; each border strip copies its window
// into a padded tile instead. Sum pooling 3x3 over 12 channels padded to
// 16 with 0.25, 33 pixels.
// CASE: sum_pool_channel_padding
// INPUT: x = rand(1, 4, 33, 12)
// REFERENCE: windows(np.pad(x, ((0, 0), (1, 1), (1, 1), (2, 2)), constant_values=0.25).astype(np.float64), 3, 3, 1, 1).sum(axis=(3, 4))
// TOLERANCE: 1e-5
func.func @sum_pool_channel_padding(%x: tensor<1x4x33x12xf32>) -> tensor<1x4x33x16xf32> {
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %p = tensor.pad %x low[0, 1, 1, 2] high[0, 1, 1, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %quarter : f32
  } : tensor<1x4x33x12xf32> to tensor<1x6x35x16xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x33x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x33x16xf32>) -> tensor<1x4x33x16xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %window : tensor<1x6x35x16xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x33x16xf32>) -> tensor<1x4x33x16xf32>
  return %r : tensor<1x4x33x16xf32>
}
