// A multiply feeding an add may fuse into an FMA.
func.func @fma(%a: vector<4x32xf32>, %b: vector<4x32xf32>, %c: vector<4x32xf32>) -> vector<4x32xf32> {
  %m = arith.mulf %a, %b : vector<4x32xf32>
  %s = arith.addf %c, %m : vector<4x32xf32>
  return %s : vector<4x32xf32>
}

// A contraction becomes outer products: per k, each row of A broadcast and
// multiplied into a row of B with FMAs on 1-D vectors.
func.func @contract(%a: vector<4x8xf32>, %b: vector<8x16xf32>, %c: vector<4x16xf32>) -> vector<4x16xf32> {
  %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>
  return %r : vector<4x16xf32>
}

// A masked read becomes a masked load.
func.func @masked_read(%m: memref<?xf32>, %n: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %mask = vector.create_mask %n : vector<16xi1>
  %v = vector.mask %mask { vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<?xf32>, vector<16xf32> } : vector<16xi1> -> vector<16xf32>
  return %v : vector<16xf32>
}

// A reduction across rows adds whole rows.
func.func @column_sum(%v: vector<8x16xf32>, %acc: vector<16xf32>) -> vector<16xf32> {
  %r = vector.multi_reduction <add>, %v, %acc [0] : vector<8x16xf32> to vector<16xf32>
  return %r : vector<16xf32>
}

// A reduction along rows becomes one horizontal reduction per row, masked
// or not.
func.func @row_max(%v: vector<2x16xf32>, %acc: vector<2xf32>) -> vector<2xf32> {
  %r = vector.multi_reduction <maxnumf>, %v, %acc [1] : vector<2x16xf32> to vector<2xf32>
  return %r : vector<2xf32>
}

func.func @masked_row_sum(%v: vector<1x16xf32>, %n: index, %acc: vector<1xf32>) -> vector<1xf32> {
  %c1 = arith.constant 1 : index
  %mask = vector.create_mask %c1, %n : vector<1x16xi1>
  %r = vector.mask %mask { vector.multi_reduction <add>, %v, %acc [1] : vector<1x16xf32> to vector<1xf32> } : vector<1x16xi1> -> vector<1xf32>
  return %r : vector<1xf32>
}

// exp, log, tanh, erf and their kin become polynomials (f16 through f32);
// sin and cos stay calls, for accuracy at large arguments.
func.func @math(%x: vector<16xf32>, %h: vector<16xf16>) -> (vector<16xf32>, vector<16xf16>, vector<16xf32>) {
  %e = math.exp %x : vector<16xf32>
  %t = math.tanh %h : vector<16xf16>
  %s = math.sin %x : vector<16xf32>
  return %e, %t, %s : vector<16xf32>, vector<16xf16>, vector<16xf32>
}
