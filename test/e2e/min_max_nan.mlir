// RUN: %e2e %s

// Minima and maxima with NaNs, infinities and signed zeros in their inputs,
// through each codegen path that computes them: a max pool (the
// convolution pipeline, a NaN and -inf padding), an elementwise ReLU and
// minimum, a maxnum that ignores NaNs, and a row reduction.

// SETUP: def specials(*shape):
// SETUP:     x = rand(*shape)
// SETUP:     flat = x.reshape(-1)
// SETUP:     flat[::37] = np.nan
// SETUP:     flat[3::11] = np.inf
// SETUP:     flat[5::13] = -np.inf
// SETUP:     flat[2::17] = -0.0
// SETUP:     flat[4::19] = 0.0
// SETUP:     return x
// SETUP: def max_pool(x, window, stride, pad):
// SETUP:     p = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)), constant_values=-np.inf)
// SETUP:     w = np.lib.stride_tricks.sliding_window_view(p, (window, window), axis=(1, 2))
// SETUP:     return w[:, ::stride, ::stride].max(axis=(4, 5))

// CASE: max_pool_specials
// INPUT: x = specials(1, 40, 40, 64)
// REFERENCE: max_pool(x, 3, 2, 1)
func.func @max_pool_specials(%x: tensor<1x40x40x64xf32>) -> tensor<1x20x20x64xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %lowest : f32
  } : tensor<1x40x40x64xf32> to tensor<1x42x42x64xf32>
  %e = tensor.empty() : tensor<1x20x20x64xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%e : tensor<1x20x20x64xf32>) -> tensor<1x20x20x64xf32>
  %window = tensor.empty() : tensor<3x3xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<1x42x42x64xf32>, tensor<3x3xf32>) outs(%init : tensor<1x20x20x64xf32>) -> tensor<1x20x20x64xf32>
  return %y : tensor<1x20x20x64xf32>
}

// CASE: relu_and_minimum
// INPUT: a = specials(37, 50)
// INPUT: b = specials(37, 50)[:, ::-1].copy()
// REFERENCE: np.maximum(a, 0)
// REFERENCE: np.minimum(a, b)
// REFERENCE: np.fmax(a, b)
func.func @relu_and_minimum(%a: tensor<37x50xf32>, %b: tensor<37x50xf32>) -> (tensor<37x50xf32>, tensor<37x50xf32>, tensor<37x50xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37x50xf32>
  %r:3 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x50xf32>, tensor<37x50xf32>) outs(%e, %e, %e : tensor<37x50xf32>, tensor<37x50xf32>, tensor<37x50xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32, %o2: f32):
    %relu = arith.maximumf %x, %zero : f32
    %min = arith.minimumf %x, %y : f32
    %maxnum = arith.maxnumf %x, %y : f32
    linalg.yield %relu, %min, %maxnum : f32, f32, f32
  } -> (tensor<37x50xf32>, tensor<37x50xf32>, tensor<37x50xf32>)
  return %r#0, %r#1, %r#2 : tensor<37x50xf32>, tensor<37x50xf32>, tensor<37x50xf32>
}

// CASE: row_max
// INPUT: a = specials(33, 70)
// REFERENCE: a.max(axis=1)
func.func @row_max(%a: tensor<33x70xf32>) -> tensor<33xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<33xf32>
  %init = linalg.fill ins(%lowest : f32) outs(%e : tensor<33xf32>) -> tensor<33xf32>
  %r = linalg.reduce ins(%a : tensor<33x70xf32>) outs(%init : tensor<33xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<33xf32>
}
