// RUN: %e2e %s

// CASE: dynamic_matmul_bias
// INPUT: a = rand(19, 40)
// INPUT: b = rand(40, 27)
// INPUT: bias = rand(27)
// REFERENCE: a @ b + bias
func.func @dynamic_matmul_bias(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// The same module runs other sizes.
// CASE: dynamic_matmul_bias
// INPUT: a = rand(70, 5)
// INPUT: b = rand(5, 130)
// INPUT: bias = rand(130)
// REFERENCE: a @ b + bias

// CASE: dynamic_softmax
// INPUT: x = rand(9, 77)
// REFERENCE: np.exp(x - x.max(axis=1, keepdims=True)) / np.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)
// TOLERANCE: 1e-5
func.func @dynamic_softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Reduction and elementwise with one dynamic dim, and an empty tensor.
// CASE: dynamic_row_norm
// INPUT: x = rand(11, 64)
// REFERENCE: x / np.sqrt((x * x).sum(axis=1, keepdims=True))
// TOLERANCE: 1e-5
func.func @dynamic_row_norm(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x64xf32>
  %se = tensor.empty(%rows) : tensor<?xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x64xf32>) outs(%sf : tensor<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e = tensor.empty(%rows) : tensor<?x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<?x64xf32>, tensor<?xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %n = math.sqrt %s : f32
    %d = arith.divf %a, %n : f32
    linalg.yield %d : f32
  } -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// CASE: dynamic_row_norm
// INPUT: x = np.zeros((0, 64), dtype=np.float32)
// REFERENCE: x

// A convolution with bias and ReLU over a batch and an image width known
// only at run time: the epilogue is tiled with it into register tiles of
// a run-time size (masked, vectorized with the other parallel ops).
// SETUP: def conv3x3(x, w):
// SETUP:     n, h, wd, c = x.shape
// SETUP:     out = np.zeros((n, h - 2, wd - 2, w.shape[3]))
// SETUP:     for i in range(3):
// SETUP:         for j in range(3):
// SETUP:             out += np.einsum("nhwc,cf->nhwf", x[:, i:i + h - 2, j:j + wd - 2, :].astype(np.float64), w[i, j].astype(np.float64))
// SETUP:     return out
// CASE: dynamic_conv_bias_relu
// INPUT: x = rand(2, 5, 13, 8) - 0.5
// INPUT: w = rand(3, 3, 8, 40) - 0.5
// INPUT: b = rand(40) - 0.5
// REFERENCE: np.maximum(conv3x3(x, w) + b, 0)
// TOLERANCE: 1e-4
func.func @dynamic_conv_bias_relu(%x: tensor<?x5x?x8xf32>, %w: tensor<3x3x8x40xf32>, %b: tensor<40xf32>) -> tensor<?x3x?x40xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x5x?x8xf32>
  %wd = tensor.dim %x, %c2 : tensor<?x5x?x8xf32>
  %ow = arith.subi %wd, %c2 : index
  %e = tensor.empty(%n, %ow) : tensor<?x3x?x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3x?x40xf32>) -> tensor<?x3x?x40xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<?x5x?x8xf32>, tensor<3x3x8x40xf32>) outs(%f : tensor<?x3x?x40xf32>) -> tensor<?x3x?x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<?x3x?x40xf32>, tensor<40xf32>) outs(%e : tensor<?x3x?x40xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<?x3x?x40xf32>
  return %r : tensor<?x3x?x40xf32>
}

// The same module, another batch and width.
// CASE: dynamic_conv_bias_relu
// INPUT: x = rand(1, 5, 30, 8) - 0.5
// INPUT: w = rand(3, 3, 8, 40) - 0.5
// INPUT: b = rand(40) - 0.5
// REFERENCE: np.maximum(conv3x3(x, w) + b, 0)
// TOLERANCE: 1e-4
