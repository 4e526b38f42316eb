// RUN: %e2e %s

// CASE: matmul_static
// INPUT: a = rand(64, 96)
// INPUT: b = rand(96, 80)
// REFERENCE: a @ b
func.func @matmul_static(%a: tensor<64x96xf32>, %b: tensor<96x80xf32>) -> tensor<64x80xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x80xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x80xf32>) -> tensor<64x80xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x80xf32>) outs(%f : tensor<64x80xf32>) -> tensor<64x80xf32>
  return %r : tensor<64x80xf32>
}

// Odd sizes: every tile level has a remainder.
// CASE: matmul_odd
// INPUT: a = rand(67, 131)
// INPUT: b = rand(131, 259)
// REFERENCE: a @ b
func.func @matmul_odd(%a: tensor<67x131xf32>, %b: tensor<131x259xf32>) -> tensor<67x259xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x259xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x259xf32>) -> tensor<67x259xf32>
  %r = linalg.matmul ins(%a, %b : tensor<67x131xf32>, tensor<131x259xf32>) outs(%f : tensor<67x259xf32>) -> tensor<67x259xf32>
  return %r : tensor<67x259xf32>
}

// Bias and ReLU fused into the matmul's dispatch.
// CASE: matmul_bias_relu
// INPUT: a = rand(33, 64)
// INPUT: b = rand(64, 48)
// INPUT: bias = rand(48)
// REFERENCE: np.maximum(a @ b + bias, 0)
func.func @matmul_bias_relu(%a: tensor<33x64xf32>, %b: tensor<64x48xf32>, %bias: tensor<48xf32>) -> tensor<33x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x48xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x48xf32>) -> tensor<33x48xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<33x64xf32>, tensor<64x48xf32>) outs(%f : tensor<33x48xf32>) -> tensor<33x48xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<33x48xf32>, tensor<48xf32>) outs(%e : tensor<33x48xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<33x48xf32>
  return %r : tensor<33x48xf32>
}

// Accumulating into a given tensor.
// CASE: matmul_accumulate
// INPUT: a = rand(16, 32)
// INPUT: b = rand(32, 24)
// INPUT: c = rand(16, 24)
// REFERENCE: c + a @ b
func.func @matmul_accumulate(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// Integer matmul, i8 inputs accumulated in i32.
// CASE: matmul_i8_i32
// INPUT: a = randint(-8, 8, 8, 16, dtype=np.int8)
// INPUT: b = randint(-8, 8, 16, 12, dtype=np.int8)
// REFERENCE: a.astype(np.int32) @ b.astype(np.int32)
func.func @matmul_i8_i32(%a: tensor<8x16xi8>, %b: tensor<16x12xi8>) -> tensor<8x12xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8x12xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<8x12xi32>) -> tensor<8x12xi32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xi8>, tensor<16x12xi8>) outs(%f : tensor<8x12xi32>) -> tensor<8x12xi32>
  return %r : tensor<8x12xi32>
}

// Accumulating into an input across many workgroups: each workgroup must
// start from its own rows of the accumulator, not a copy of all of them.
// CASE: matvec_accumulate
// INPUT: a = randint(-8, 8, 300, 64, dtype=np.int8)
// INPUT: x = randint(-8, 8, 64, dtype=np.int8)
// INPUT: acc = randint(-100, 100, 300)
// REFERENCE: acc + a.astype(np.int32) @ x.astype(np.int32)
func.func @matvec_accumulate(%a: tensor<300x64xi8>, %x: tensor<64xi8>, %acc: tensor<300xi32>) -> tensor<300xi32> {
  %r = linalg.matvec ins(%a, %x : tensor<300x64xi8>, tensor<64xi8>) outs(%acc : tensor<300xi32>) -> tensor<300xi32>
  return %r : tensor<300xi32>
}

// One row by a matrix whose N and K are above the 256-wide cache tile and
// not multiples of it: the last panel of the row is partial and of dynamic
// size, and its padding must be sliced off before the row is stored.
// CASE: row_partial_panels
// INPUT: a = rand(1, 257)
// INPUT: b = rand(257, 257)
// REFERENCE: a @ b
// TOLERANCE: 1e-4
func.func @row_partial_panels(%a: tensor<1x257xf32>, %b: tensor<257x257xf32>) -> tensor<1x257xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x257xf32>) -> tensor<1x257xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x257xf32>, tensor<257x257xf32>) outs(%f : tensor<1x257xf32>) -> tensor<1x257xf32>
  return %r : tensor<1x257xf32>
}

// The same with a wider partial panel and an accumulator that is an input.
// CASE: row_partial_panels_accumulate
// INPUT: a = rand(1, 513)
// INPUT: b = rand(513, 300)
// INPUT: acc = rand(1, 300)
// REFERENCE: acc + a @ b
// TOLERANCE: 1e-4
func.func @row_partial_panels_accumulate(%a: tensor<1x513xf32>, %b: tensor<513x300xf32>, %acc: tensor<1x300xf32>) -> tensor<1x300xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x513xf32>, tensor<513x300xf32>) outs(%acc : tensor<1x300xf32>) -> tensor<1x300xf32>
  return %r : tensor<1x300xf32>
}

// B transposed (a linear layer's weight as stored, N x K), odd sizes so
// every tile level has a remainder.
// CASE: matmul_transpose_b
// INPUT: a = rand(67, 131)
// INPUT: b = rand(259, 131)
// REFERENCE: a @ b.T
func.func @matmul_transpose_b(%a: tensor<67x131xf32>, %b: tensor<259x131xf32>) -> tensor<67x259xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<67x259xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<67x259xf32>) -> tensor<67x259xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<67x131xf32>, tensor<259x131xf32>) outs(%f : tensor<67x259xf32>) -> tensor<67x259xf32>
  return %r : tensor<67x259xf32>
}

// B transposed with N and K multiples of 16: its panels are packed from
// 16x16 blocks transposed in registers.
// CASE: matmul_transpose_b_blocks
// INPUT: a = rand(40, 80)
// INPUT: b = rand(96, 80)
// REFERENCE: a @ b.T
func.func @matmul_transpose_b_blocks(%a: tensor<40x80xf32>, %b: tensor<96x80xf32>) -> tensor<40x96xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x96xf32>) -> tensor<40x96xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<40x80xf32>, tensor<96x80xf32>) outs(%f : tensor<40x96xf32>) -> tensor<40x96xf32>
  return %r : tensor<40x96xf32>
}

// A transposed (K x M).
// CASE: matmul_transpose_a
// INPUT: a = rand(96, 33)
// INPUT: b = rand(96, 70)
// REFERENCE: a.T @ b
func.func @matmul_transpose_a(%a: tensor<96x33xf32>, %b: tensor<96x70xf32>) -> tensor<33x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<33x70xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<33x70xf32>) -> tensor<33x70xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<96x33xf32>, tensor<96x70xf32>) outs(%f : tensor<33x70xf32>) -> tensor<33x70xf32>
  return %r : tensor<33x70xf32>
}

// Rows left over past the full register tiles of 8, a number known only in
// the workgroup (71 = 64 + 7): tiles of 4, 2 and 1 rows.
// CASE: matmul_row_remainder_7
// INPUT: a = rand(71, 19)
// INPUT: b = rand(19, 45)
// REFERENCE: a @ b
func.func @matmul_row_remainder_7(%a: tensor<71x19xf32>, %b: tensor<19x45xf32>) -> tensor<71x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<71x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<71x45xf32>) -> tensor<71x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<71x19xf32>, tensor<19x45xf32>) outs(%f : tensor<71x45xf32>) -> tensor<71x45xf32>
  return %r : tensor<71x45xf32>
}

// The same with B transposed and a remainder of 5 rows (69 = 64 + 5).
// CASE: matmul_transpose_b_row_remainder_5
// INPUT: a = rand(69, 23)
// INPUT: b = rand(37, 23)
// REFERENCE: a @ b.T
func.func @matmul_transpose_b_row_remainder_5(%a: tensor<69x23xf32>, %b: tensor<37x23xf32>) -> tensor<69x37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<69x37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<69x37xf32>) -> tensor<69x37xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %b : tensor<69x23xf32>, tensor<37x23xf32>) outs(%f : tensor<69x37xf32>) -> tensor<69x37xf32>
  return %r : tensor<69x37xf32>
}

// N of one vector (16 floats on AVX-512) and of less than one (7): one
// vector per register row, bias and ReLU fused.
// CASE: matmul_narrow_n_bias_relu
// INPUT: a = rand(203, 24)
// INPUT: b = rand(24, 16)
// INPUT: c = rand(16)
// REFERENCE: np.maximum(a @ b + c, 0)
func.func @matmul_narrow_n_bias_relu(%a: tensor<203x24xf32>, %b: tensor<24x16xf32>, %c: tensor<16xf32>) -> tensor<203x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<203x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<203x16xf32>) -> tensor<203x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<203x24xf32>, tensor<24x16xf32>) outs(%f : tensor<203x16xf32>) -> tensor<203x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r, %c : tensor<203x16xf32>, tensor<16xf32>) outs(%e : tensor<203x16xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<203x16xf32>
  return %o : tensor<203x16xf32>
}

// CASE: matmul_narrow_n_7
// INPUT: a = rand(45, 13)
// INPUT: b = rand(13, 7)
// REFERENCE: a @ b
func.func @matmul_narrow_n_7(%a: tensor<45x13xf32>, %b: tensor<13x7xf32>) -> tensor<45x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<45x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<45x7xf32>) -> tensor<45x7xf32>
  %r = linalg.matmul ins(%a, %b : tensor<45x13xf32>, tensor<13x7xf32>) outs(%f : tensor<45x7xf32>) -> tensor<45x7xf32>
  return %r : tensor<45x7xf32>
}

// Static N past whole panels, split off with narrower register tiles: 97
// columns (3 panels and 1 column), bias and ReLU after; 45 columns (one
// panel and 13: 16 wide); 40 (one panel and 8) with B transposed.
// CASE: matmul_narrow_tail_1_bias_relu
// INPUT: a = rand(97, 97) - 0.5
// INPUT: b = rand(97, 97) - 0.5
// INPUT: bias = rand(97) - 0.5
// REFERENCE: np.maximum(a @ b + bias, 0)
func.func @matmul_narrow_tail_1_bias_relu(%a: tensor<97x97xf32>, %b: tensor<97x97xf32>, %bias: tensor<97xf32>) -> tensor<97x97xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<97x97xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<97x97xf32>) -> tensor<97x97xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<97x97xf32>, tensor<97x97xf32>) outs(%f : tensor<97x97xf32>) -> tensor<97x97xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<97x97xf32>, tensor<97xf32>) outs(%e : tensor<97x97xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<97x97xf32>
  return %r : tensor<97x97xf32>
}

// CASE: matmul_narrow_tail_13
// INPUT: a = rand(21, 30)
// INPUT: b = rand(30, 45)
// REFERENCE: a @ b
func.func @matmul_narrow_tail_13(%a: tensor<21x30xf32>, %b: tensor<30x45xf32>) -> tensor<21x45xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<21x45xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<21x45xf32>) -> tensor<21x45xf32>
  %r = linalg.matmul ins(%a, %b : tensor<21x30xf32>, tensor<30x45xf32>) outs(%f : tensor<21x45xf32>) -> tensor<21x45xf32>
  return %r : tensor<21x45xf32>
}

// CASE: matmul_transpose_b_narrow_tail_8
// INPUT: a = rand(19, 26)
// INPUT: b = rand(40, 26)
// REFERENCE: a @ b.T
func.func @matmul_transpose_b_narrow_tail_8(%a: tensor<19x26xf32>, %b: tensor<40x26xf32>) -> tensor<19x40xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<19x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<19x40xf32>) -> tensor<19x40xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<19x26xf32>, tensor<40x26xf32>) outs(%f : tensor<19x40xf32>) -> tensor<19x40xf32>
  return %r : tensor<19x40xf32>
}
