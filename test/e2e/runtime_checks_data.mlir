// RUN: %e2e %s

// Reads at indices that come from data, and integer divisions, are safe
// where they happen and checked before the op (kiln-guard-indices-and-
// divisors): a bad index or divisor ends the call with an error that
// counts them, never a read outside a buffer or a SIGFPE.

// A gather of rows by indices from an input; the check reads the indices
// only.
// CASE: gather
// INPUT: data = rand(5, 3)
// INPUT: idx = np.array([4, 0, 2, 2], dtype=np.int64)
// REFERENCE: data[idx]
// CASE: gather
// INPUT: data = rand(5, 3)
// INPUT: idx = np.array([0, 4, -1, 100000000, 2], dtype=np.int64)
// ERROR: 'linalg.generic': 2 reads at an index outside [0, 5) along dimension 0 of input 0 (the indices range from -1 to 100000000)
func.func @gather(%data: tensor<5x3xf32>, %idx: tensor<?xi64>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %idx, %c0 : tensor<?xi64>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<?xi64>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%i: i64, %o: f32):
    %ii = arith.index_cast %i : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %data[%ii, %j] : tensor<5x3xf32>
    linalg.yield %v : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}

// Integer division of dynamic size: vectorized with a mask, whose padding
// lanes divided by zero before (SIGFPE with valid inputs).
// CASE: divide
// INPUT: a = np.arange(-50, 50, dtype=np.int32)
// INPUT: b = np.full(100, 7, dtype=np.int32)
// REFERENCE: np.trunc(a / b).astype(np.int32)
// CASE: divide
// INPUT: a = np.arange(13, dtype=np.int32)
// INPUT: b = np.array([1, 2, 0, 4, 5, 0, 7, 8, 9, 10, 11, 12, 13], dtype=np.int32)
// ERROR: 'linalg.generic': 2 integer divisions by zero and 0 of the smallest integer by -1
// CASE: divide
// INPUT: a = np.array([-2**31, 5, -2**31], dtype=np.int32)
// INPUT: b = np.array([-1, -1, 2], dtype=np.int32)
// ERROR: 'linalg.generic': 0 integer divisions by zero and 1 of the smallest integer by -1
func.func @divide(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xi32>
  %e = tensor.empty(%n) : tensor<?xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xi32>, tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    linalg.yield %q : i32
  } -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// Unsigned remainder by a divisor from the host: checked there.
// CASE: remainder
// INPUT: a = np.arange(10, dtype=np.uint8)
// INPUT: d = np.array(3, dtype=np.uint8)
// REFERENCE: a % 3
// CASE: remainder
// INPUT: a = np.arange(10, dtype=np.uint8)
// INPUT: d = np.array(0, dtype=np.uint8)
// ERROR: 'linalg.generic': an integer division by zero
func.func @remainder(%a: tensor<?xi8>, %d: tensor<i8>) -> tensor<?xi8> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xi8>
  %div = tensor.extract %d[] : tensor<i8>
  %e = tensor.empty(%n) : tensor<?xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<?xi8>) outs(%e : tensor<?xi8>) {
  ^bb0(%x: i8, %o: i8):
    %q = arith.remui %x, %div : i8
    linalg.yield %q : i8
  } -> tensor<?xi8>
  return %r : tensor<?xi8>
}

// Shape arithmetic on the host: a size divided by another.
// CASE: split_rows
// INPUT: x = rand(12)
// INPUT: rows = np.array(3, dtype=np.int64)
// REFERENCE: x.reshape(3, 4)
// CASE: split_rows
// INPUT: x = rand(12)
// INPUT: rows = np.array(0, dtype=np.int64)
// ERROR: 'arith.divui': an integer division of 12 by 0
func.func @split_rows(%x: tensor<?xf32>, %rows: tensor<i64>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %r64 = tensor.extract %rows[] : tensor<i64>
  %r = arith.index_cast %r64 : i64 to index
  %cols = arith.divui %n, %r : index
  %y = tensor.expand_shape %x [[0, 1]] output_shape [%r, %cols] : tensor<?xf32> into tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
