// RUN: %e2e %s
// RUN: %e2e %s --compile-arg=--kiln-target-cpu=haswell

// bf16 arithmetic and math, on a CPU with bf16 conversions (this one,
// when it has AVX512-BF16) and on one without (haswell): there it is done
// in f32 and rounded to nearest even by Kiln's code. It failed to link
// before (ld.lld: undefined symbol __truncsfbf2).
// SETUP: def bf16(x):
// SETUP:     bits = np.atleast_1d(np.asarray(x, np.float32)).view(np.uint32).astype(np.uint64)
// SETUP:     sixteen, one = np.uint64(16), np.uint64(1)
// SETUP:     rounded = (bits + np.uint64(0x7fff) + ((bits >> sixteen) & one)) >> sixteen << sixteen
// SETUP:     return rounded.astype(np.uint32).view(np.float32).reshape(np.shape(x))

// CASE: arithmetic
// INPUT: a = rand(40, low=-4, high=4)
// INPUT: b = rand(40, low=0.5, high=4)
// REFERENCE: bf16(bf16(a) + bf16(b))
// REFERENCE: bf16(bf16(a) * bf16(b))
// REFERENCE: bf16(bf16(a) - bf16(b))
// REFERENCE: bf16(bf16(a) / bf16(b))
// REFERENCE: np.maximum(bf16(a), bf16(b))
// REFERENCE: bf16(np.exp(bf16(a)))
// TOLERANCE: 1e-2
func.func @arithmetic(%a: tensor<40xf32>, %b: tensor<40xf32>) -> (tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) {
  %e = tensor.empty() : tensor<40xf32>
  %r:6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<40xf32>, tensor<40xf32>) outs(%e, %e, %e, %e, %e, %e : tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) {
  ^bb0(%x: f32, %y: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32, %o4: f32, %o5: f32):
    %xb = arith.truncf %x : f32 to bf16
    %yb = arith.truncf %y : f32 to bf16
    %add = arith.addf %xb, %yb : bf16
    %mul = arith.mulf %xb, %yb : bf16
    %sub = arith.subf %xb, %yb : bf16
    %div = arith.divf %xb, %yb : bf16
    %max = arith.maximumf %xb, %yb : bf16
    %exp = math.exp %xb : bf16
    %r0 = arith.extf %add : bf16 to f32
    %r1 = arith.extf %mul : bf16 to f32
    %r2 = arith.extf %sub : bf16 to f32
    %r3 = arith.extf %div : bf16 to f32
    %r4 = arith.extf %max : bf16 to f32
    %r5 = arith.extf %exp : bf16 to f32
    linalg.yield %r0, %r1, %r2, %r3, %r4, %r5 : f32, f32, f32, f32, f32, f32
  } -> (tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5 : tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>
}

// The elementwise ops of linalg on bf16 tensors (what an ONNX model in bf16
// holds), kept in bf16 from input to output.
// CASE: tensors
// INPUT: a = rand(16, low=-4, high=4)
// INPUT: b = rand(16, low=-4, high=4)
// REFERENCE: bf16(bf16(a) + bf16(b))
// TOLERANCE: 1e-2
func.func @tensors(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xbf16>
  %ab = arith.truncf %a : tensor<16xf32> to tensor<16xbf16>
  %bb = arith.truncf %b : tensor<16xf32> to tensor<16xbf16>
  %sum = linalg.add ins(%ab, %bb : tensor<16xbf16>, tensor<16xbf16>) outs(%e : tensor<16xbf16>) -> tensor<16xbf16>
  %r = arith.extf %sum : tensor<16xbf16> to tensor<16xf32>
  return %r : tensor<16xf32>
}

// A bf16 scalar the host computes with (its code has no CPU to assume).
// CASE: host_scalar
// INPUT: a = rand(4, low=-4, high=4)
// REFERENCE: np.array(bf16(bf16(a[2]) * np.float32(3)))
// TOLERANCE: 1e-2
func.func @host_scalar(%a: tensor<4xf32>) -> tensor<f32> {
  %c2 = arith.constant 2 : index
  %x = tensor.extract %a[%c2] : tensor<4xf32>
  %xb = arith.truncf %x : f32 to bf16
  %three = arith.constant 3.0 : bf16
  %p = arith.mulf %xb, %three : bf16
  %r = arith.extf %p : bf16 to f32
  %t = tensor.from_elements %r : tensor<f32>
  return %t : tensor<f32>
}
