// RUN: %e2e %s

// CASE: batch_matmul
// INPUT: a = rand(3, 17, 40)
// INPUT: b = rand(3, 40, 23)
// REFERENCE: a @ b
func.func @batch_matmul(%a: tensor<3x17x40xf32>, %b: tensor<3x40x23xf32>) -> tensor<3x17x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x17x40xf32>, tensor<3x40x23xf32>) outs(%f : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  return %r : tensor<3x17x23xf32>
}

// The same through TOSA, with a bias.
// CASE: tosa_matmul_add
// INPUT: a = rand(2, 9, 16)
// INPUT: b = rand(2, 16, 12)
// INPUT: bias = rand(1, 1, 12)
// REFERENCE: a @ b + bias
func.func @tosa_matmul_add(%a: tensor<2x9x16xf32>, %b: tensor<2x16x12xf32>, %bias: tensor<1x1x12xf32>) -> tensor<2x9x12xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<2x9x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x9x12xf32>
  %1 = tosa.add %0, %bias : (tensor<2x9x12xf32>, tensor<1x1x12xf32>) -> tensor<2x9x12xf32>
  return %1 : tensor<2x9x12xf32>
}

// Attention's scores, Q * K^T per head: B transposed through indexing_maps.
// CASE: batch_matmul_transpose_b
// INPUT: q = rand(3, 17, 40)
// INPUT: k = rand(3, 23, 40)
// REFERENCE: q @ k.transpose(0, 2, 1)
func.func @batch_matmul_transpose_b(%q: tensor<3x17x40xf32>, %k: tensor<3x23x40xf32>) -> tensor<3x17x23xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x17x23xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%q, %k : tensor<3x17x40xf32>, tensor<3x23x40xf32>) outs(%f : tensor<3x17x23xf32>) -> tensor<3x17x23xf32>
  return %r : tensor<3x17x23xf32>
}

// Row remainders per batch (70 = 64 + 6: tiles of 4 and 2 rows).
// CASE: batch_matmul_row_remainder_6
// INPUT: a = rand(3, 70, 13)
// INPUT: b = rand(3, 13, 33)
// REFERENCE: a @ b
func.func @batch_matmul_row_remainder_6(%a: tensor<3x70x13xf32>, %b: tensor<3x13x33xf32>) -> tensor<3x70x33xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x70x33xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x70x33xf32>) -> tensor<3x70x33xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x70x13xf32>, tensor<3x13x33xf32>) outs(%f : tensor<3x70x33xf32>) -> tensor<3x70x33xf32>
  return %r : tensor<3x70x33xf32>
}

// A batch whose static N (35) is one panel and 3 columns: the 3 split off
// with a register tile 4 wide.
// CASE: batch_matmul_narrow_tail
// INPUT: a = rand(3, 19, 23)
// INPUT: b = rand(3, 23, 35)
// REFERENCE: a @ b
func.func @batch_matmul_narrow_tail(%a: tensor<3x19x23xf32>, %b: tensor<3x23x35xf32>) -> tensor<3x19x35xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x19x35xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x19x35xf32>) -> tensor<3x19x35xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x19x23xf32>, tensor<3x23x35xf32>) outs(%f : tensor<3x19x35xf32>) -> tensor<3x19x35xf32>
  return %r : tensor<3x19x35xf32>
}

// N narrower than one register tile (2 of 16 lanes) and B left in place
// ([K][N]): each batch's tile is masked by rows and columns, and its
// contraction lowers once its leading batch of one is dropped.
// CASE: batch_matmul_i8_narrow_n_2
// INPUT: a = randint(-8, 8, 3, 5, 9, dtype=np.int8)
// INPUT: b = randint(-8, 8, 3, 9, 2, dtype=np.int8)
// REFERENCE: a.astype(np.int32) @ b.astype(np.int32)
func.func @batch_matmul_i8_narrow_n_2(%a: tensor<3x5x9xi8>, %b: tensor<3x9x2xi8>) -> tensor<3x5x2xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3x5x2xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<3x5x2xi32>) -> tensor<3x5x2xi32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x5x9xi8>, tensor<3x9x2xi8>) outs(%f : tensor<3x5x2xi32>) -> tensor<3x5x2xi32>
  return %r : tensor<3x5x2xi32>
}
