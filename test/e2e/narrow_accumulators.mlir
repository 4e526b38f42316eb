// RUN: %e2e %s

// Sums of f16 and bf16 terms accumulate in f32 (kiln-widen-narrow-
// accumulators): each result is the exact sum rounded once to its type, so
// the tolerances below are about an ulp of the result. Accumulated in f16,
// the column sums stop at 2048 and the matmul is off by about 1%.

// CASE: column_sum_f16
// INPUT: x = rand(16384, 64, dtype=np.float16, low=0.0, high=1.0)
// REFERENCE: x.astype(np.float64).sum(axis=0).astype(np.float16)
// TOLERANCE: 1e-3
func.func @column_sum_f16(%x: tensor<16384x64xf16>) -> tensor<64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %r = linalg.reduce ins(%x : tensor<16384x64xf16>) outs(%f : tensor<64xf16>) dimensions = [0]
    (%a: f16, %b: f16) {
      %s = arith.addf %a, %b : f16
      linalg.yield %s : f16
    }
  return %r : tensor<64xf16>
}

// bf16 has no numpy type: its bit patterns go in as i16 and the sums come
// out extended to f32 (exactly).
// SETUP: def bf16(x):
// SETUP:     bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
// SETUP:     bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
// SETUP:     return bits.astype(np.uint16).view(np.int16)
// SETUP: def from_bf16(codes):
// SETUP:     return (codes.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
// CASE: row_sum_bf16
// INPUT: codes = bf16(rand(6, 65536, low=0.0, high=1.0))
// REFERENCE: from_bf16(bf16(from_bf16(codes).astype(np.float64).sum(axis=1)))
// TOLERANCE: 1e-2
func.func @row_sum_bf16(%codes: tensor<6x65536xi16>) -> tensor<6xf32> {
  %x = arith.bitcast %codes : tensor<6x65536xi16> to tensor<6x65536xbf16>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<6xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<6xbf16>) -> tensor<6xbf16>
  %r = linalg.reduce ins(%x : tensor<6x65536xbf16>) outs(%f : tensor<6xbf16>) dimensions = [1]
    (%a: bf16, %b: bf16) {
      %s = arith.addf %a, %b : bf16
      linalg.yield %s : bf16
    }
  %w = arith.extf %r : tensor<6xbf16> to tensor<6xf32>
  return %w : tensor<6xf32>
}

// A sum of squares in a linalg.generic, rows of a dynamic count.
// CASE: sum_of_squares_f16
// INPUT: x = rand(5, 65536, dtype=np.float16, low=0.0, high=1.0)
// REFERENCE: (x * x).astype(np.float64).sum(axis=1).astype(np.float16)
// TOLERANCE: 1e-3
func.func @sum_of_squares_f16(%x: tensor<?x65536xf16>) -> tensor<?xf16> {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x65536xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty(%rows) : tensor<?xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<?xf16>) -> tensor<?xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x65536xf16>) outs(%f : tensor<?xf16>) {
  ^bb0(%a: f16, %acc: f16):
    %sq = arith.mulf %a, %a : f16
    %s = arith.addf %acc, %sq : f16
    linalg.yield %s : f16
  } -> tensor<?xf16>
  return %r : tensor<?xf16>
}

// A matmul of f16 accumulates in f32 and rounds once.
// CASE: matmul_f16
// INPUT: a = rand(8, 2048, dtype=np.float16, low=0.0, high=1.0)
// INPUT: b = rand(2048, 24, dtype=np.float16, low=0.0, high=1.0)
// REFERENCE: (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
// TOLERANCE: 2e-3
func.func @matmul_f16(%a: tensor<8x2048xf16>, %b: tensor<2048x24xf16>) -> tensor<8x24xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x24xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<8x24xf16>) -> tensor<8x24xf16>
  %r = linalg.matmul ins(%a, %b : tensor<8x2048xf16>, tensor<2048x24xf16>)
                     outs(%f : tensor<8x24xf16>) -> tensor<8x24xf16>
  return %r : tensor<8x24xf16>
}

// A convolution of f16 over 3x3x256 taps, accumulated in f32.
// SETUP: def conv_nhwc_hwcf(x, w):
// SETUP:     n, h, wd, c = x.shape
// SETUP:     kh, kw, _, f = w.shape
// SETUP:     out = np.zeros((n, h - kh + 1, wd - kw + 1, f))
// SETUP:     for i in range(kh):
// SETUP:         for j in range(kw):
// SETUP:             out += x[:, i:i + h - kh + 1, j:j + wd - kw + 1, :] @ w[i, j]
// SETUP:     return out
// CASE: conv_f16
// INPUT: x = rand(1, 6, 6, 256, dtype=np.float16, low=0.0, high=1.0)
// INPUT: w = rand(3, 3, 256, 16, dtype=np.float16, low=0.0, high=1.0)
// REFERENCE: conv_nhwc_hwcf(x.astype(np.float64), w.astype(np.float64)).astype(np.float16)
// TOLERANCE: 2e-3
func.func @conv_f16(%x: tensor<1x6x6x256xf16>, %w: tensor<3x3x256x16xf16>) -> tensor<1x4x4x16xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x4x4x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x256xf16>, tensor<3x3x256x16xf16>)
      outs(%f : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  return %r : tensor<1x4x4x16xf16>
}
