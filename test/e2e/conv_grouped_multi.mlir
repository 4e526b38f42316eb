// RUN: %e2e %s

// Grouped convolutions with fewer output channels per group than a vector
// has lanes: a register tile takes several groups side by side in one
// vector's lanes (MultiGroupConvolution.cpp). Strides, dilations, padding,
// input runs longer than a vector, partial strips, a dynamic batch and a
// constant filter. References in float64, group by group.

// SETUP: def gconv(x, w, stride=1, dilation=1, pad=0):
// SETUP:     # x: N x H x W x G x C, w: G x F x KH x KW x C -> N x OH x OW x G x F
// SETUP:     x = np.pad(x.astype(np.float64), ((0, 0), (pad, pad), (pad, pad), (0, 0), (0, 0)))
// SETUP:     n, h, wd, g, c = x.shape
// SETUP:     kh, kw = w.shape[2], w.shape[3]
// SETUP:     oh = (h - dilation * (kh - 1) - 1) // stride + 1
// SETUP:     ow = (wd - dilation * (kw - 1) - 1) // stride + 1
// SETUP:     out = np.zeros((n, oh, ow, g, w.shape[1]))
// SETUP:     for i in range(kh):
// SETUP:         for j in range(kw):
// SETUP:             patch = x[:, i * dilation:i * dilation + stride * (oh - 1) + 1:stride, j * dilation:j * dilation + stride * (ow - 1) + 1:stride]
// SETUP:             out += np.einsum("nhwgc,gfc->nhwgf", patch, w[:, :, i, j, :].astype(np.float64))
// SETUP:     return out

// Groups of 8 channels (two per vector), stride 2 and dilation 2, padding
// fused into the dispatch, bias and ReLU in its epilogue, batch 2.
// CASE: groups_of_8_strided_dilated
// INPUT: x = rand(2, 17, 17, 8, 8)
// INPUT: w = rand(8, 8, 3, 3, 8)
// INPUT: b = rand(8, 8)
// REFERENCE: np.maximum(gconv(x, w, stride=2, dilation=2, pad=2) + b, 0)
// TOLERANCE: 1e-4
func.func @groups_of_8_strided_dilated(%x: tensor<2x17x17x8x8xf32>, %w: tensor<8x8x3x3x8xf32>, %b: tensor<8x8xf32>) -> tensor<2x9x9x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 2, 0, 0] high[0, 2, 2, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<2x17x17x8x8xf32> to tensor<2x21x21x8x8xf32>
  %e = tensor.empty() : tensor<2x9x9x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x9x9x8x8xf32>) -> tensor<2x9x9x8x8xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x21x21x8x8xf32>, tensor<8x8x3x3x8xf32>) outs(%f : tensor<2x9x9x8x8xf32>) -> tensor<2x9x9x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>, affine_map<(n, h, w, g, f) -> (g, f)>, affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<2x9x9x8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<2x9x9x8x8xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x9x9x8x8xf32>
  return %r : tensor<2x9x9x8x8xf32>
}

// 8 channels in and 4 out per group: four groups per vector, whose input
// runs (32 values) span two vectors; a row of 19 outputs, a strip of 16
// and a peeled one of 3.
// CASE: wide_input_runs
// INPUT: x = rand(1, 9, 21, 8, 8)
// INPUT: w = rand(8, 4, 3, 3, 8)
// REFERENCE: gconv(x, w)
// TOLERANCE: 1e-4
func.func @wide_input_runs(%x: tensor<1x9x21x8x8xf32>, %w: tensor<8x4x3x3x8xf32>) -> tensor<1x7x19x8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x7x19x8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x7x19x8x4xf32>) -> tensor<1x7x19x8x4xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x21x8x8xf32>, tensor<8x4x3x3x8xf32>) outs(%f : tensor<1x7x19x8x4xf32>) -> tensor<1x7x19x8x4xf32>
  return %c : tensor<1x7x19x8x4xf32>
}

// A dynamic batch (each workgroup takes one image, a static tile).
// CASE: dynamic_batch
// INPUT: x = rand(3, 6, 6, 16, 4)
// INPUT: w = rand(16, 4, 3, 3, 4)
// REFERENCE: gconv(x, w)
// TOLERANCE: 1e-4
func.func @dynamic_batch(%x: tensor<?x6x6x16x4xf32>, %w: tensor<16x4x3x3x4xf32>) -> tensor<?x4x4x16x4xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x6x6x16x4xf32>
  %e = tensor.empty(%n) : tensor<?x4x4x16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x4x4x16x4xf32>) -> tensor<?x4x4x16x4xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x6x6x16x4xf32>, tensor<16x4x3x3x4xf32>) outs(%f : tensor<?x4x4x16x4xf32>) -> tensor<?x4x4x16x4xf32>
  return %c : tensor<?x4x4x16x4xf32>
}

// A constant filter (a model's weights, transposed at compile time), 1x1,
// 8 groups of 2 channels: all eight groups in one vector.
// CASE: constant_filter_1x1
// INPUT: x = rand(1, 5, 7, 8, 2)
// REFERENCE: gconv(x, (np.arange(32, dtype=np.float64) / 10 - 1.5).reshape(8, 2, 1, 1, 2))
// TOLERANCE: 1e-4
func.func @constant_filter_1x1(%x: tensor<1x5x7x8x2xf32>) -> tensor<1x5x7x8x2xf32> {
  %zero = arith.constant 0.0 : f32
  %flat = arith.constant dense<[-1.5, -1.4, -1.3, -1.2, -1.1, -1.0, -0.9, -0.8, -0.7, -0.6, -0.5, -0.4, -0.3, -0.2, -0.1, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6]> : tensor<32xf32>
  %w = tensor.expand_shape %flat [[0, 1, 2, 3, 4]] output_shape [8, 2, 1, 1, 2] : tensor<32xf32> into tensor<8x2x1x1x2xf32>
  %e = tensor.empty() : tensor<1x5x7x8x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x7x8x2xf32>) -> tensor<1x5x7x8x2xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x7x8x2xf32>, tensor<8x2x1x1x2xf32>) outs(%f : tensor<1x5x7x8x2xf32>) -> tensor<1x5x7x8x2xf32>
  return %c : tensor<1x5x7x8x2xf32>
}
