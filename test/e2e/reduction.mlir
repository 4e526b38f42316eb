// RUN: %e2e %s

// Sum over the innermost dim.
// CASE: sum_rows
// INPUT: x = rand(37, 300)
// REFERENCE: x.sum(axis=1)
// TOLERANCE: 1e-4
func.func @sum_rows(%x: tensor<37x300xf32>) -> tensor<37xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<37xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<37xf32>) -> tensor<37xf32>
  %r = linalg.reduce ins(%x : tensor<37x300xf32>) outs(%f : tensor<37xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %r : tensor<37xf32>
}

// Max over the outer dim.
// CASE: max_columns
// INPUT: x = rand(45, 70)
// REFERENCE: x.max(axis=0)
func.func @max_columns(%x: tensor<45x70xf32>) -> tensor<70xf32> {
  %lowest = arith.constant -3.4028235e38 : f32
  %e = tensor.empty() : tensor<70xf32>
  %f = linalg.fill ins(%lowest : f32) outs(%e : tensor<70xf32>) -> tensor<70xf32>
  %r = linalg.reduce ins(%x : tensor<45x70xf32>) outs(%f : tensor<70xf32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %m = arith.maximumf %a, %b : f32
      linalg.yield %m : f32
    }
  return %r : tensor<70xf32>
}

// TOSA reductions, keeping the reduced dim.
// CASE: tosa_reduce_sum
// INPUT: x = rand(4, 5, 6)
// REFERENCE: x.sum(axis=1, keepdims=True)
func.func @tosa_reduce_sum(%x: tensor<4x5x6xf32>) -> tensor<4x1x6xf32> {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<4x5x6xf32>) -> tensor<4x1x6xf32>
  return %0 : tensor<4x1x6xf32>
}

// Argmax: two results from one reduction.
// CASE: argmax
// INPUT: x = rand(6, 50)
// REFERENCE: x.max(axis=1)
// REFERENCE: x.argmax(axis=1).astype(np.int32)
func.func @argmax(%x: tensor<6x50xf32>) -> (tensor<6xf32>, tensor<6xi32>) {
  %lowest = arith.constant -3.4028235e38 : f32
  %zero = arith.constant 0 : i32
  %ev = tensor.empty() : tensor<6xf32>
  %ei = tensor.empty() : tensor<6xi32>
  %fv = linalg.fill ins(%lowest : f32) outs(%ev : tensor<6xf32>) -> tensor<6xf32>
  %fi = linalg.fill ins(%zero : i32) outs(%ei : tensor<6xi32>) -> tensor<6xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x50xf32>) outs(%fv, %fi : tensor<6xf32>, tensor<6xi32>) {
  ^bb0(%v: f32, %best: f32, %index: i32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %greater = arith.cmpf ogt, %v, %best : f32
    %nb = arith.select %greater, %v, %best : f32
    %ni = arith.select %greater, %ji, %index : i32
    linalg.yield %nb, %ni : f32, i32
  } -> (tensor<6xf32>, tensor<6xi32>)
  return %r#0, %r#1 : tensor<6xf32>, tensor<6xi32>
}

// A gather summed over every dim, its body reading linalg.index of the
// reduced dims: each row's elements, not row 0's (partial-reduction tiling
// once left the indices at the tile's origin).
// CASE: gather_sum
// INPUT: x = rand(3, 5, 2)
// INPUT: i = randint(0, 5, 3, 1, 2, dtype=np.int64)
// REFERENCE: np.take_along_axis(x, i, 1).sum()
func.func @gather_sum(%x: tensor<3x5x2xf32>, %i: tensor<3x1x2xi64>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>], iterator_types = ["reduction", "reduction", "reduction"]} ins(%i : tensor<3x1x2xi64>) outs(%f : tensor<f32>) {
  ^bb0(%in: i64, %acc: f32):
    %row = linalg.index 0 : index
    %column = linalg.index 2 : index
    %at = arith.index_cast %in : i64 to index
    %v = tensor.extract %x[%row, %at, %column] : tensor<3x5x2xf32>
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Two results of one reduction that start from the same value (CSE merges
// their fills): each keeps its own buffer (kiln-separate-shared-
// destinations). Before, the second result was a copy of the first.
// CASE: two_counts
// INPUT: x = np.array([0, 3, 0, -1, 5, -1, -1, 0, 2], dtype=np.int32)
// REFERENCE: np.array((x == 0).sum(), dtype=np.int64)
// REFERENCE: np.array((x == -1).sum(), dtype=np.int64)
func.func @two_counts(%x: tensor<?xi32>) -> (tensor<i64>, tensor<i64>) {
  %zero = arith.constant 0 : i64
  %c0 = arith.constant 0 : i32
  %m1 = arith.constant -1 : i32
  %e0 = tensor.empty() : tensor<i64>
  %f0 = linalg.fill ins(%zero : i64) outs(%e0 : tensor<i64>) -> tensor<i64>
  %e1 = tensor.empty() : tensor<i64>
  %f1 = linalg.fill ins(%zero : i64) outs(%e1 : tensor<i64>) -> tensor<i64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<?xi32>) outs(%f0, %f1 : tensor<i64>, tensor<i64>) {
  ^bb0(%v: i32, %a: i64, %b: i64):
    %is0 = arith.cmpi eq, %v, %c0 : i32
    %ism = arith.cmpi eq, %v, %m1 : i32
    %i0 = arith.extui %is0 : i1 to i64
    %im = arith.extui %ism : i1 to i64
    %s0 = arith.addi %a, %i0 : i64
    %sm = arith.addi %b, %im : i64
    linalg.yield %s0, %sm : i64, i64
  } -> (tensor<i64>, tensor<i64>)
  return %r#0, %r#1 : tensor<i64>, tensor<i64>
}
