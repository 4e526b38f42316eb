// RUN: %e2e %s

// A chain of elementwise ops with a broadcast, fused into one dispatch.
// CASE: fused_chain
// INPUT: x = rand(37, 129)
// INPUT: y = rand(129)
// REFERENCE: np.tanh(x * 2.0 + y) - np.exp(-np.abs(x))
// TOLERANCE: 1e-5
func.func @fused_chain(%x: tensor<37x129xf32>, %y: tensor<129xf32>) -> tensor<37x129xf32> {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<37x129xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<37x129xf32>, tensor<129xf32>) outs(%e : tensor<37x129xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    %s = arith.addf %m, %b : f32
    %t = math.tanh %s : f32
    %abs = math.absf %a : f32
    %n = arith.negf %abs : f32
    %ex = math.exp %n : f32
    %d = arith.subf %t, %ex : f32
    linalg.yield %d : f32
  } -> tensor<37x129xf32>
  return %r : tensor<37x129xf32>
}

// Math functions on their own.
// CASE: math_functions
// INPUT: x = rand(1000, low=0.1, high=4.0)
// REFERENCE: np.log(x) + np.sqrt(x) + 1.0 / np.sqrt(x) + np.sin(x) * np.cos(x) + np.power(x, 1.5)
// TOLERANCE: 1e-4
func.func @math_functions(%x: tensor<1000xf32>) -> tensor<1000xf32> {
  %e = tensor.empty() : tensor<1000xf32>
  %p = arith.constant 1.5 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1000xf32>) outs(%e : tensor<1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %l = math.log %a : f32
    %s = math.sqrt %a : f32
    %rs = math.rsqrt %a : f32
    %sin = math.sin %a : f32
    %cos = math.cos %a : f32
    %pw = math.powf %a, %p : f32
    %0 = arith.addf %l, %s : f32
    %1 = arith.addf %0, %rs : f32
    %2 = arith.mulf %sin, %cos : f32
    %3 = arith.addf %1, %2 : f32
    %4 = arith.addf %3, %pw : f32
    linalg.yield %4 : f32
  } -> tensor<1000xf32>
  return %r : tensor<1000xf32>
}

// Elementwise arith on tensors, as frameworks emit it.
// CASE: arith_on_tensors
// INPUT: a = rand(8, 16)
// INPUT: b = rand(8, 16)
// REFERENCE: np.maximum(a * b, a - b)
func.func @arith_on_tensors(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = arith.mulf %a, %b : tensor<8x16xf32>
  %1 = arith.subf %a, %b : tensor<8x16xf32>
  %2 = arith.maximumf %0, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}

// Integer ops and comparisons from TOSA.
// CASE: tosa_integer
// INPUT: a = randint(-100, 100, 64)
// INPUT: b = randint(1, 20, 64)
// REFERENCE: np.where(a > b, a - b, a * b).astype(np.int32)
func.func @tosa_integer(%a: tensor<64xi32>, %b: tensor<64xi32>) -> tensor<64xi32> {
  %gt = tosa.greater %a, %b : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
  %sub = tosa.sub %a, %b : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %mul = tosa.mul %a, %b, %shift : (tensor<64xi32>, tensor<64xi32>, tensor<1xi8>) -> tensor<64xi32>
  %r = tosa.select %gt, %sub, %mul : (tensor<64xi1>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
  return %r : tensor<64xi32>
}

// Half precision in and out.
// CASE: f16_scale
// INPUT: x = rand(300, dtype=np.float16)
// REFERENCE: (x.astype(np.float32) * 3.0).astype(np.float16)
// TOLERANCE: 2e-3
func.func @f16_scale(%x: tensor<300xf16>) -> tensor<300xf16> {
  %three = arith.constant 3.0 : f16
  %e = tensor.empty() : tensor<300xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<300xf16>) outs(%e : tensor<300xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %three : f16
    linalg.yield %m : f16
  } -> tensor<300xf16>
  return %r : tensor<300xf16>
}

// The approximated math functions (polynomials, not libm) over wide
// ranges, edges included: relative error within a few ulps of f32, infinities
// and zeros where they belong. (Like most vector math libraries they treat
// denormal inputs as zero.)
// CASE: approximated_math
// INPUT: x = np.concatenate([rand(2000, low=-100.0, high=100.0), np.array([0.0, -0.0, 1e-30, -1e-30, 88.0, 89.0, -87.0, -104.0, 1e30, -1e30], dtype=np.float32)])
// REFERENCE: np.where(x > 88.7228, np.inf, np.exp(np.minimum(x, np.float32(88.7228))))
// REFERENCE: np.tanh(x)
// REFERENCE: np.log(np.abs(x) + np.float32(1e-30))
// REFERENCE: np.log1p(np.abs(x))
// TOLERANCE: 1e-5
func.func @approximated_math(%x: tensor<2010xf32>) -> (tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>) {
  %e = tensor.empty() : tensor<2010xf32>
  %tiny = arith.constant 1.0e-30 : f32
  %r:4 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<2010xf32>) outs(%e, %e, %e, %e : tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>) {
  ^bb0(%a: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32):
    %exp = math.exp %a : f32
    %tanh = math.tanh %a : f32
    %abs = math.absf %a : f32
    %shifted = arith.addf %abs, %tiny : f32
    %log = math.log %shifted : f32
    %log1p = math.log1p %abs : f32
    linalg.yield %exp, %tanh, %log, %log1p : f32, f32, f32, f32
  } -> (tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>, tensor<2010xf32>
}

// Booleans in and out: one byte per element in memory, whatever the
// vector width (vectors of i1 would be packed into bits).
// CASE: booleans
// INPUT: a = rand(37, 19)
// INPUT: b = rand(37, 19)
// INPUT: m = rand(37, 19) > 0
// REFERENCE: a > b
// REFERENCE: np.where(m, a, b)
func.func @booleans(%a: tensor<37x19xf32>, %b: tensor<37x19xf32>, %m: tensor<37x19xi1>) -> (tensor<37x19xi1>, tensor<37x19xf32>) {
  %e1 = tensor.empty() : tensor<37x19xi1>
  %ef = tensor.empty() : tensor<37x19xf32>
  %gt = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<37x19xf32>, tensor<37x19xf32>) outs(%e1 : tensor<37x19xi1>) {
  ^bb0(%x: f32, %y: f32, %o: i1):
    %c = arith.cmpf ogt, %x, %y : f32
    linalg.yield %c : i1
  } -> tensor<37x19xi1>
  %sel = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m, %a, %b : tensor<37x19xi1>, tensor<37x19xf32>, tensor<37x19xf32>) outs(%ef : tensor<37x19xf32>) {
  ^bb0(%c: i1, %x: f32, %y: f32, %o: f32):
    %s = arith.select %c, %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<37x19xf32>
  return %gt, %sel : tensor<37x19xi1>, tensor<37x19xf32>
}

// One dispatch storing both an intermediate value and its consumer's
// result (the intermediate also feeds another dispatch through the host).
// CASE: intermediate_outputs
// INPUT: x = rand(33, 70)
// REFERENCE: np.exp(x)
// REFERENCE: np.exp(x) * 2.0
// REFERENCE: np.exp(x).T @ np.exp(x)
// TOLERANCE: 1e-4
func.func @intermediate_outputs(%x: tensor<33x70xf32>) -> (tensor<33x70xf32>, tensor<33x70xf32>, tensor<70x70xf32>) {
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x70xf32>
  %a = linalg.exp ins(%x : tensor<33x70xf32>) outs(%e : tensor<33x70xf32>) -> tensor<33x70xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<33x70xf32>) outs(%e : tensor<33x70xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %two : f32
    linalg.yield %m : f32
  } -> tensor<33x70xf32>
  %t0 = tensor.empty() : tensor<70x33xf32>
  %at = linalg.transpose ins(%a : tensor<33x70xf32>) outs(%t0 : tensor<70x33xf32>) permutation = [1, 0]
  %m0 = tensor.empty() : tensor<70x70xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%m0 : tensor<70x70xf32>) -> tensor<70x70xf32>
  %mm = linalg.matmul ins(%at, %a : tensor<70x33xf32>, tensor<33x70xf32>) outs(%mf : tensor<70x70xf32>) -> tensor<70x70xf32>
  return %a, %b, %mm : tensor<33x70xf32>, tensor<33x70xf32>, tensor<70x70xf32>
}

// 8-bit floats between dispatches: values that f8E4M3FN holds exactly
// (multiples of 1/4 up to 4) go through it into a matmul.
// CASE: f8_intermediate
// INPUT: x = np.round(rand(32, 32) * 16) / 4
// REFERENCE: x @ x
// REFERENCE: (x * 4).astype(np.int32) == (x * 4).astype(np.int32)
// TOLERANCE: 1e-5
func.func @f8_intermediate(%x: tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xi1>) {
  %t = arith.truncf %x : tensor<32x32xf32> to tensor<32x32xf8E4M3FN>
  %f = arith.extf %t : tensor<32x32xf8E4M3FN> to tensor<32x32xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<32x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%f, %f : tensor<32x32xf32>, tensor<32x32xf32>) outs(%acc : tensor<32x32xf32>) -> tensor<32x32xf32>
  %same = arith.cmpf oeq, %f, %x : tensor<32x32xf32>
  return %m, %same : tensor<32x32xf32>, tensor<32x32xi1>
}

// f64 to f16 rounds once, correctly, and links (LLVM would call
// __truncdfhf2): halfway points of f16 nudged by far less than an f32 ulp,
// which a conversion through f32 rounding to nearest rounds twice and
// wrongly, with huge, infinite, NaN, signed-zero and subnormal values.
// CASE: f64_to_16_bits
// SETUP: def hard_f64():
// SETUP:     tiny = [2.0**-40, -2.0**-40, 2.0**-60]
// SETUP:     halves = [1 + 2.0**-11, 1 + 3 * 2.0**-11, -(1 + 2.0**-11), 1 + 2.0**-8, 3 + 2.0**-7]
// SETUP:     values = [h + t for h in halves for t in tiny] + halves
// SETUP:     values += [65519.99, 65520.0, 1e300, -1e300, np.inf, -np.inf, np.nan, 0.0, -0.0, 2.0**-25, 2.0**-24 * 1.5, 3e-8, 1e-320]
// SETUP:     return np.array(values, dtype=np.float64)
// INPUT: x = hard_f64()
// REFERENCE: x.astype(np.float16)
// TOLERANCE: 0
func.func @f64_to_16_bits(%x: tensor<33xf64>) -> tensor<33xf16> {
  %e = tensor.empty() : tensor<33xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<33xf64>) outs(%e : tensor<33xf16>) {
  ^bb0(%a: f64, %o: f16):
    %t = arith.truncf %a : f64 to f16
    linalg.yield %t : f16
  } -> tensor<33xf16>
  return %r : tensor<33xf16>
}
