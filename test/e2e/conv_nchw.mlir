// RUN: %e2e %s

// Channels-first (NCHW) convolutions and pooling, as PyTorch and ONNX
// write them: converted to NHWC in global optimization, with transposes
// around them that fuse into the dispatches or cancel between convolutions.

// SETUP: def windows(x, kh, kw, stride):
// SETUP:     n, c, h, w = x.shape
// SETUP:     oh, ow = (h - kh) // stride + 1, (w - kw) // stride + 1
// SETUP:     out = np.empty((n, c, oh, ow, kh, kw), np.float64)
// SETUP:     for i in range(kh):
// SETUP:         for j in range(kw):
// SETUP:             out[:, :, :, :, i, j] = x[:, :, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride]
// SETUP:     return out
// SETUP: def conv(x, w, stride=1, pad=0):
// SETUP:     x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
// SETUP:     return np.einsum("nchwij,fcij->nfhw", windows(x, w.shape[2], w.shape[3], stride), w.astype(np.float64))
// SETUP: def relu(v):
// SETUP:     return np.maximum(v, 0)

// A ResNet basic block: two padded 3x3 convolutions with bias and ReLU,
// the residual added before the last ReLU. Between the convolutions the
// activation stays NHWC: two convolution dispatches and the filters'
// transposes, no transpose of an activation of its own.
// CASE: basic_block
// INPUT: x = rand(1, 16, 14, 14)
// INPUT: w1 = rand(16, 16, 3, 3)
// INPUT: w2 = rand(16, 16, 3, 3)
// INPUT: b = rand(16)
// REFERENCE: relu(conv(relu(conv(x, w1, pad=1) + b[None, :, None, None]), w2, pad=1) + x)
// TOLERANCE: 1e-4
func.func @basic_block(%x: tensor<1x16x14x14xf32>, %w1: tensor<16x16x3x3xf32>, %w2: tensor<16x16x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x14x14xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x14x14xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %p1 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x14x14xf32> to tensor<1x16x16x16xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x16x16x16xf32>, tensor<16x16x3x3xf32>) outs(%f : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b : tensor<1x16x14x14xf32>, tensor<16xf32>) outs(%e : tensor<1x16x14x14xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x14x14xf32>
  %p2 = tensor.pad %r1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x16x14x14xf32> to tensor<1x16x16x16xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x16x16x16xf32>, tensor<16x16x3x3xf32>) outs(%f : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %x : tensor<1x16x14x14xf32>, tensor<1x16x14x14xf32>) outs(%e : tensor<1x16x14x14xf32>) {
  ^bb0(%a: f32, %r: f32, %o: f32):
    %s = arith.addf %a, %r : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x14x14xf32>
  return %r2 : tensor<1x16x14x14xf32>
}

// A constant filter is transposed at compile time; stride 2, batch 2.
// CASE: constant_filter_stride2
// INPUT: x = rand(2, 3, 9, 9)
// REFERENCE: conv(x, np.arange(2 * 3 * 3 * 3, dtype=np.float64).reshape(2, 3, 3, 3) / 50 - 0.5, stride=2)
// TOLERANCE: 1e-4
func.func @constant_filter_stride2(%x: tensor<2x3x9x9xf32>) -> tensor<2x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[-0.50, -0.48, -0.46], [-0.44, -0.42, -0.40], [-0.38, -0.36, -0.34]],
                               [[-0.32, -0.30, -0.28], [-0.26, -0.24, -0.22], [-0.20, -0.18, -0.16]],
                               [[-0.14, -0.12, -0.10], [-0.08, -0.06, -0.04], [-0.02, 0.00, 0.02]]],
                              [[[0.04, 0.06, 0.08], [0.10, 0.12, 0.14], [0.16, 0.18, 0.20]],
                               [[0.22, 0.24, 0.26], [0.28, 0.30, 0.32], [0.34, 0.36, 0.38]],
                               [[0.40, 0.42, 0.44], [0.46, 0.48, 0.50], [0.52, 0.54, 0.56]]]]> : tensor<2x3x3x3xf32>
  %e = tensor.empty() : tensor<2x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x9x9xf32>, tensor<2x3x3x3xf32>) outs(%f : tensor<2x2x4x4xf32>) -> tensor<2x2x4x4xf32>
  return %c : tensor<2x2x4x4xf32>
}

// Depthwise and max pooling in NCHW.
// CASE: depthwise_then_pool
// INPUT: x = rand(1, 8, 10, 10)
// INPUT: w = rand(8, 3, 3)
// REFERENCE: windows(np.einsum("nchwij,cij->nchw", windows(x.astype(np.float64), 3, 3, 1), w.astype(np.float64)), 2, 2, 2).max(axis=(4, 5))
// TOLERANCE: 1e-4
func.func @depthwise_then_pool(%x: tensor<1x8x10x10xf32>, %w: tensor<8x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x8x4x4xf32>
  %pf = linalg.fill ins(%lowest : f32) outs(%pe : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%d, %window : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %p : tensor<1x8x4x4xf32>
}

// A grouped convolution (two groups of two input and three output
// channels), as ResNeXt's: a generic over NHWGC between transposes, each
// workgroup one group (test/e2e/conv_grouped.mlir has more).
// CASE: grouped
// INPUT: x = rand(1, 4, 10, 10)
// INPUT: w = rand(2, 3, 2, 3, 3)
// REFERENCE: np.stack([conv(x[:, 2 * g:2 * g + 2], w[g]) for g in range(2)], axis=1)
// TOLERANCE: 1e-4
func.func @grouped(%x: tensor<1x4x10x10xf32>, %w: tensor<2x3x2x3x3xf32>) -> tensor<1x2x3x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 10, 10] : tensor<1x4x10x10xf32> into tensor<1x2x2x10x10xf32>
  %e = tensor.empty() : tensor<1x2x3x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xe, %w : tensor<1x2x2x10x10xf32>, tensor<2x3x2x3x3xf32>) outs(%f : tensor<1x2x3x8x8xf32>) -> tensor<1x2x3x8x8xf32>
  return %c : tensor<1x2x3x8x8xf32>
}
