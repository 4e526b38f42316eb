// RUN: %e2e %s

// Grouped convolutions (ResNeXt's, and any with groups between one and the
// channel count): a generic over NHWGC images after global optimization,
// a workgroup of one group an ordinary convolution in the cpu-convolution
// pipeline. References in float64, group by group.

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
// SETUP: def nchw_gconv(x, w, groups, stride=1, dilation=1):
// SETUP:     # x: N x G*C x H x W, w: G x F x C x KH x KW -> N x G x F x OH x OW
// SETUP:     n, gc, h, wd = x.shape
// SETUP:     xg = x.reshape(n, groups, gc // groups, h, wd).transpose(0, 3, 4, 1, 2)
// SETUP:     return gconv(xg, w.transpose(0, 1, 3, 4, 2), stride, dilation).transpose(0, 3, 4, 1, 2)

// Padding fused into the dispatch, bias and ReLU in its epilogue.
// CASE: nhwgc_bias_relu
// INPUT: x = rand(1, 14, 14, 4, 16)
// INPUT: w = rand(4, 32, 3, 3, 16)
// INPUT: b = rand(4, 32)
// REFERENCE: np.maximum(gconv(x, w, pad=1) + b, 0)
// TOLERANCE: 1e-4
func.func @nhwgc_bias_relu(%x: tensor<1x14x14x4x16xf32>, %w: tensor<4x32x3x3x16xf32>, %b: tensor<4x32xf32>) -> tensor<1x14x14x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0, 0] high[0, 1, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<1x14x14x4x16xf32> to tensor<1x16x16x4x16xf32>
  %e = tensor.empty() : tensor<1x14x14x4x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x4x32xf32>) -> tensor<1x14x14x4x32xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x16x16x4x16xf32>, tensor<4x32x3x3x16xf32>) outs(%f : tensor<1x14x14x4x32xf32>) -> tensor<1x14x14x4x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>, affine_map<(n, h, w, g, f) -> (g, f)>, affine_map<(n, h, w, g, f) -> (n, h, w, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x14x14x4x32xf32>, tensor<4x32xf32>) outs(%e : tensor<1x14x14x4x32xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x14x14x4x32xf32>
  return %r : tensor<1x14x14x4x32xf32>
}

// ResNeXt's shape of group: 32 groups of 4 channels in and out.
// CASE: resnext_groups
// INPUT: x = rand(2, 8, 8, 32, 4)
// INPUT: w = rand(32, 4, 3, 3, 4)
// REFERENCE: gconv(x, w, pad=1)
// TOLERANCE: 1e-4
func.func @resnext_groups(%x: tensor<2x8x8x32x4xf32>, %w: tensor<32x4x3x3x4xf32>) -> tensor<2x8x8x32x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0, 0] high[0, 1, 1, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index, %m: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x32x4xf32> to tensor<2x10x10x32x4xf32>
  %e = tensor.empty() : tensor<2x8x8x32x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x32x4xf32>) -> tensor<2x8x8x32x4xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x10x10x32x4xf32>, tensor<32x4x3x3x4xf32>) outs(%f : tensor<2x8x8x32x4xf32>) -> tensor<2x8x8x32x4xf32>
  return %c : tensor<2x8x8x32x4xf32>
}

// Channels first (PyTorch's and ONNX's layout), odd channel counts (3
// groups of 4 in, 5 out), stride 2 and dilation 2, batch 2.
// CASE: ngchw_strided_dilated
// INPUT: x = rand(2, 12, 11, 13)
// INPUT: w = rand(3, 5, 4, 3, 3)
// REFERENCE: nchw_gconv(x, w, 3, stride=2, dilation=2)
// TOLERANCE: 1e-4
func.func @ngchw_strided_dilated(%x: tensor<2x12x11x13xf32>, %w: tensor<3x5x4x3x3xf32>) -> tensor<2x3x5x4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [2, 3, 4, 11, 13] : tensor<2x12x11x13xf32> into tensor<2x3x4x11x13xf32>
  %e = tensor.empty() : tensor<2x3x5x4x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x5x4x5xf32>) -> tensor<2x3x5x4x5xf32>
  %c = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%xe, %w : tensor<2x3x4x11x13xf32>, tensor<3x5x4x3x3xf32>) outs(%f : tensor<2x3x5x4x5xf32>) -> tensor<2x3x5x4x5xf32>
  return %c : tensor<2x3x5x4x5xf32>
}

// The filter's output channels ahead of its groups (FGCHW), and a
// constant filter, transposed at compile time.
// CASE: ngchw_fgchw_constant_filter
// INPUT: x = rand(1, 4, 6, 6)
// REFERENCE: nchw_gconv(x, (np.arange(48, dtype=np.float64) / 10).reshape(3, 2, 2, 2, 2).transpose(1, 0, 2, 3, 4), 2)
// TOLERANCE: 1e-4
func.func @ngchw_fgchw_constant_filter(%x: tensor<1x4x6x6xf32>) -> tensor<1x2x3x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %flat = arith.constant dense<[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7, 2.8, 2.9, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 3.6, 3.7, 3.8, 3.9, 4.0, 4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7]> : tensor<48xf32>
  %w = tensor.expand_shape %flat [[0, 1, 2, 3, 4]] output_shape [3, 2, 2, 2, 2] : tensor<48xf32> into tensor<3x2x2x2x2xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 6, 6] : tensor<1x4x6x6xf32> into tensor<1x2x2x6x6xf32>
  %e = tensor.empty() : tensor<1x2x3x5x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x5x5xf32>) -> tensor<1x2x3x5x5xf32>
  %c = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xe, %w : tensor<1x2x2x6x6xf32>, tensor<3x2x2x2x2xf32>) outs(%f : tensor<1x2x3x5x5xf32>) -> tensor<1x2x3x5x5xf32>
  return %c : tensor<1x2x3x5x5xf32>
}

// A dynamic batch: workgroups still take one group, of a static shape
// but for the batch.
// CASE: dynamic_batch
// INPUT: x = rand(3, 7, 7, 2, 8)
// INPUT: w = rand(2, 16, 3, 3, 8)
// REFERENCE: gconv(x, w)
// TOLERANCE: 1e-4
func.func @dynamic_batch(%x: tensor<?x7x7x2x8xf32>, %w: tensor<2x16x3x3x8xf32>) -> tensor<?x5x5x2x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x7x7x2x8xf32>
  %e = tensor.empty(%n) : tensor<?x5x5x2x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x5x5x2x16xf32>) -> tensor<?x5x5x2x16xf32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x7x7x2x8xf32>, tensor<2x16x3x3x8xf32>) outs(%f : tensor<?x5x5x2x16xf32>) -> tensor<?x5x5x2x16xf32>
  return %c : tensor<?x5x5x2x16xf32>
}

// Integers: i8 images and filters summed in i32, exactly.
// CASE: int8
// INPUT: x = randint(-128, 128, 1, 6, 6, 2, 8, dtype=np.int8)
// INPUT: w = randint(-128, 128, 2, 16, 3, 3, 8, dtype=np.int8)
// REFERENCE: gconv(x, w).astype(np.int32)
// TOLERANCE: 0
func.func @int8(%x: tensor<1x6x6x2x8xi8>, %w: tensor<2x16x3x3x8xi8>) -> tensor<1x4x4x2x16xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x2x16xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x4x4x2x16xi32>) -> tensor<1x4x4x2x16xi32>
  %c = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x2x8xi8>, tensor<2x16x3x3x8xi8>) outs(%f : tensor<1x4x4x2x16xi32>) -> tensor<1x4x4x2x16xi32>
  return %c : tensor<1x4x4x2x16xi32>
}

// ResNeXt's bottleneck as PyTorch and ONNX write it (NCHW): a 1x1
// convolution, the grouped 3x3 on its result split into groups by a
// reshape, its result merged again for the last 1x1. The activations stay
// channels-last between the three convolutions.
// CASE: nchw_bottleneck
// INPUT: x = rand(1, 16, 14, 14)
// INPUT: w1 = rand(16, 16, 1, 1)
// INPUT: w2 = rand(4, 4, 4, 3, 3)
// INPUT: w3 = rand(16, 16, 1, 1)
// REFERENCE: np.einsum("nchw,fc->nfhw", nchw_gconv(np.einsum("nchw,fc->nfhw", x, w1[:, :, 0, 0]), w2, 4).reshape(1, 16, 12, 12), w3[:, :, 0, 0])
// TOLERANCE: 1e-4
func.func @nchw_bottleneck(%x: tensor<1x16x14x14xf32>, %w1: tensor<16x16x1x1xf32>, %w2: tensor<4x4x4x3x3xf32>, %w3: tensor<16x16x1x1xf32>) -> tensor<1x16x12x12xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x14x14xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x16x14x14xf32>, tensor<16x16x1x1xf32>) outs(%f : tensor<1x16x14x14xf32>) -> tensor<1x16x14x14xf32>
  %xe = tensor.expand_shape %c1 [[0], [1, 2], [3], [4]] output_shape [1, 4, 4, 14, 14] : tensor<1x16x14x14xf32> into tensor<1x4x4x14x14xf32>
  %e2 = tensor.empty() : tensor<1x4x4x12x12xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x12x12xf32>) -> tensor<1x4x4x12x12xf32>
  %c2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xe, %w2 : tensor<1x4x4x14x14xf32>, tensor<4x4x4x3x3xf32>) outs(%f2 : tensor<1x4x4x12x12xf32>) -> tensor<1x4x4x12x12xf32>
  %cc = tensor.collapse_shape %c2 [[0], [1, 2], [3], [4]] : tensor<1x4x4x12x12xf32> into tensor<1x16x12x12xf32>
  %e3 = tensor.empty() : tensor<1x16x12x12xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
  %c3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%cc, %w3 : tensor<1x16x12x12xf32>, tensor<16x16x1x1xf32>) outs(%f3 : tensor<1x16x12x12xf32>) -> tensor<1x16x12x12xf32>
  return %c3 : tensor<1x16x12x12xf32>
}
