// RUN: %e2e %s

// Convolutions whose output rows at the top or bottom border take only
// the filter rows that meet image rows (SkipPaddingRows.cpp): asymmetric
// padding, windows taller than the image, dilations and strides, rows
// entirely in the padding, and a padding value other than zero, which
// keeps every row. References in float64 with the padding made by numpy.

// SETUP: def pconv(x, w, stride, dilation, pads, value):
// SETUP:     x = np.pad(x.astype(np.float64), ((0, 0), pads[0], pads[1], (0, 0)), constant_values=value)
// SETUP:     n, h, wd, c = x.shape
// SETUP:     kh, kw = w.shape[0], w.shape[1]
// SETUP:     oh = (h - dilation * (kh - 1) - 1) // stride + 1
// SETUP:     ow = (wd - dilation * (kw - 1) - 1) // stride + 1
// SETUP:     out = np.zeros((n, oh, ow, w.shape[3]))
// SETUP:     for i in range(kh):
// SETUP:         for j in range(kw):
// SETUP:             patch = x[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride, j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
// SETUP:             out += np.einsum("nhwc,cf->nhwf", patch, w[i, j].astype(np.float64))
// SETUP:     return out

// Two rows of padding above the image, none below.
// CASE: asymmetric
// INPUT: x = rand(1, 5, 6, 8)
// INPUT: w = rand(3, 3, 8, 32)
// INPUT: b = rand(32)
// REFERENCE: np.maximum(pconv(x, w, 1, 1, ((2, 0), (1, 1)), 0) + b, 0)
// TOLERANCE: 1e-4
func.func @asymmetric(%x: tensor<1x5x6x8xf32>, %w: tensor<3x3x8x32xf32>, %b: tensor<32xf32>) -> tensor<1x5x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padding = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 1, 0] high[0, 0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padding : f32
  } : tensor<1x5x6x8xf32> to tensor<1x7x8x8xf32>
  %e = tensor.empty() : tensor<1x5x6x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x6x32xf32>) -> tensor<1x5x6x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x7x8x8xf32>, tensor<3x3x8x32xf32>) outs(%f : tensor<1x5x6x32xf32>) -> tensor<1x5x6x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x5x6x32xf32>, tensor<32xf32>) outs(%e : tensor<1x5x6x32xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x5x6x32xf32>
  return %r : tensor<1x5x6x32xf32>
}

// A 5x5 window over 3 rows padded by 2: every output row meets padding above and below.
// CASE: window_taller_than_image
// INPUT: x = rand(1, 3, 7, 16)
// INPUT: w = rand(5, 5, 16, 32)
// REFERENCE: pconv(x, w, 1, 1, ((2, 2), (2, 2)), 0)
// TOLERANCE: 1e-4
func.func @window_taller_than_image(%x: tensor<1x3x7x16xf32>, %w: tensor<5x5x16x32xf32>) -> tensor<1x3x7x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padding = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padding : f32
  } : tensor<1x3x7x16xf32> to tensor<1x7x11x16xf32>
  %e = tensor.empty() : tensor<1x3x7x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x7x32xf32>) -> tensor<1x3x7x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x7x11x16xf32>, tensor<5x5x16x32xf32>) outs(%f : tensor<1x3x7x32xf32>) -> tensor<1x3x7x32xf32>
  return %c : tensor<1x3x7x32xf32>
}

// Dilation 2 (filter rows 2 image rows apart), padding 2.
// CASE: dilated
// INPUT: x = rand(1, 6, 6, 8)
// INPUT: w = rand(3, 3, 8, 32)
// INPUT: b = rand(32)
// REFERENCE: np.maximum(pconv(x, w, 1, 2, ((2, 2), (2, 2)), 0) + b, 0)
// TOLERANCE: 1e-4
func.func @dilated(%x: tensor<1x6x6x8xf32>, %w: tensor<3x3x8x32xf32>, %b: tensor<32xf32>) -> tensor<1x6x6x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padding = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padding : f32
  } : tensor<1x6x6x8xf32> to tensor<1x10x10x8xf32>
  %e = tensor.empty() : tensor<1x6x6x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x32xf32>) outs(%f : tensor<1x6x6x32xf32>) -> tensor<1x6x6x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x6x6x32xf32>, tensor<32xf32>) outs(%e : tensor<1x6x6x32xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x6x6x32xf32>
  return %r : tensor<1x6x6x32xf32>
}

// Stride 2, padding 1, two images.
// CASE: strided_batch
// INPUT: x = rand(2, 7, 7, 16)
// INPUT: w = rand(3, 3, 16, 48)
// INPUT: b = rand(48)
// REFERENCE: np.maximum(pconv(x, w, 2, 1, ((1, 1), (1, 1)), 0) + b, 0)
// TOLERANCE: 1e-4
func.func @strided_batch(%x: tensor<2x7x7x16xf32>, %w: tensor<3x3x16x48xf32>, %b: tensor<48xf32>) -> tensor<2x4x4x48xf32> {
  %zero = arith.constant 0.0 : f32
  %padding = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padding : f32
  } : tensor<2x7x7x16xf32> to tensor<2x9x9x16xf32>
  %e = tensor.empty() : tensor<2x4x4x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x48xf32>) -> tensor<2x4x4x48xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x9x9x16xf32>, tensor<3x3x16x48xf32>) outs(%f : tensor<2x4x4x48xf32>) -> tensor<2x4x4x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x4x4x48xf32>, tensor<48xf32>) outs(%e : tensor<2x4x4x48xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x4x4x48xf32>
  return %r : tensor<2x4x4x48xf32>
}

// Four rows of padding above a 3x3 window: the first output rows meet no image row, and are the bias through the ReLU.
// CASE: rows_all_padding
// INPUT: x = rand(1, 4, 5, 8)
// INPUT: w = rand(3, 3, 8, 16)
// INPUT: b = rand(16)
// REFERENCE: np.maximum(pconv(x, w, 1, 1, ((4, 1), (1, 1)), 0) + b, 0)
// TOLERANCE: 1e-4
func.func @rows_all_padding(%x: tensor<1x4x5x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<1x7x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padding = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 4, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padding : f32
  } : tensor<1x4x5x8xf32> to tensor<1x9x7x8xf32>
  %e = tensor.empty() : tensor<1x7x5x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x5x16xf32>) -> tensor<1x7x5x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x9x7x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x7x5x16xf32>) -> tensor<1x7x5x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x7x5x16xf32>, tensor<16xf32>) outs(%e : tensor<1x7x5x16xf32>) {
  ^bb0(%v: f32, %bb: f32, %o: f32):
    %s = arith.addf %v, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x7x5x16xf32>
  return %r : tensor<1x7x5x16xf32>
}

// Padding with ones: products with the padding count, and every filter row is kept.
// CASE: nonzero_padding
// INPUT: x = rand(1, 5, 5, 8)
// INPUT: w = rand(3, 3, 8, 16)
// REFERENCE: pconv(x, w, 1, 1, ((1, 1), (1, 1)), 1.0)
// TOLERANCE: 1e-4
func.func @nonzero_padding(%x: tensor<1x5x5x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x5x5x16xf32> {
  %zero = arith.constant 0.0 : f32
  %padding = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %padding : f32
  } : tensor<1x5x5x8xf32> to tensor<1x7x7x8xf32>
  %e = tensor.empty() : tensor<1x5x5x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x7x7x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  return %c : tensor<1x5x5x16xf32>
}
