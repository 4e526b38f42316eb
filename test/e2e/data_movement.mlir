// RUN: %e2e %s

// CASE: transpose
// INPUT: x = rand(7, 33, 5)
// REFERENCE: x.transpose(2, 0, 1)
func.func @transpose(%x: tensor<7x33x5xf32>) -> tensor<5x7x33xf32> {
  %e = tensor.empty() : tensor<5x7x33xf32>
  %r = linalg.transpose ins(%x : tensor<7x33x5xf32>) outs(%e : tensor<5x7x33xf32>) permutation = [2, 0, 1]
  return %r : tensor<5x7x33xf32>
}

// Transposes work in blocks of 16x16 (f32) and 32x32 (f16): sizes that
// are no multiple of a block, an f16 one, and one with a batch loop and an
// addition fused in.
// CASE: transpose_blocks
// INPUT: x = rand(333, 1000)
// REFERENCE: x.T
// TOLERANCE: 0
func.func @transpose_blocks(%x: tensor<333x1000xf32>) -> tensor<1000x333xf32> {
  %e = tensor.empty() : tensor<1000x333xf32>
  %r = linalg.transpose ins(%x : tensor<333x1000xf32>) outs(%e : tensor<1000x333xf32>) permutation = [1, 0]
  return %r : tensor<1000x333xf32>
}

// Whole 16x16 blocks of f32: each read as 16 rows, transposed in
// registers, written as 16 rows.
// CASE: transpose_16x16_blocks
// INPUT: x = rand(2, 48, 32)
// REFERENCE: x.transpose(0, 2, 1)
func.func @transpose_16x16_blocks(%x: tensor<2x48x32xf32>) -> tensor<2x32x48xf32> {
  %e = tensor.empty() : tensor<2x32x48xf32>
  %r = linalg.transpose ins(%x : tensor<2x48x32xf32>) outs(%e : tensor<2x32x48xf32>) permutation = [0, 2, 1]
  return %r : tensor<2x32x48xf32>
}

// CASE: transpose_f16
// INPUT: x = rand(70, 45, dtype=np.float16)
// REFERENCE: x.T
// TOLERANCE: 0
func.func @transpose_f16(%x: tensor<70x45xf16>) -> tensor<45x70xf16> {
  %e = tensor.empty() : tensor<45x70xf16>
  %r = linalg.transpose ins(%x : tensor<70x45xf16>) outs(%e : tensor<45x70xf16>) permutation = [1, 0]
  return %r : tensor<45x70xf16>
}

// CASE: transpose_add
// INPUT: x = rand(3, 100, 77)
// INPUT: y = rand(3, 77, 100)
// REFERENCE: x.transpose(0, 2, 1) + y
func.func @transpose_add(%x: tensor<3x100x77xf32>, %y: tensor<3x77x100xf32>) -> tensor<3x77x100xf32> {
  %e = tensor.empty() : tensor<3x77x100xf32>
  %t = linalg.transpose ins(%x : tensor<3x100x77xf32>) outs(%e : tensor<3x77x100xf32>) permutation = [0, 2, 1]
  %r = arith.addf %t, %y : tensor<3x77x100xf32>
  return %r : tensor<3x77x100xf32>
}

// CASE: tosa_transpose
// INPUT: x = rand(4, 6)
// REFERENCE: x.T
func.func @tosa_transpose(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %r = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// CASE: pad
// INPUT: x = rand(5, 6)
// REFERENCE: np.pad(x, ((1, 2), (3, 0)), constant_values=7.0)
func.func @pad(%x: tensor<5x6xf32>) -> tensor<8x9xf32> {
  %seven = arith.constant 7.0 : f32
  %r = tensor.pad %x low[1, 3] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : f32
  } : tensor<5x6xf32> to tensor<8x9xf32>
  return %r : tensor<8x9xf32>
}

// CASE: tosa_pad
// INPUT: x = randint(-5, 5, 3, 4)
// REFERENCE: np.pad(x, ((0, 1), (2, 2)), constant_values=-1)
func.func @tosa_pad(%x: tensor<3x4xi32>) -> tensor<4x8xi32> {
  %padding = tosa.const_shape {values = dense<[0, 1, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %value = "tosa.const"() <{values = dense<-1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.pad %x, %padding, %value : (tensor<3x4xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}

// CASE: concat
// INPUT: a = rand(3, 4)
// INPUT: b = rand(5, 4)
// INPUT: c = rand(1, 4)
// REFERENCE: np.concatenate([a, b, c], axis=0)
func.func @concat(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>, %c: tensor<1x4xf32>) -> tensor<9x4xf32> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<1x4xf32>) -> tensor<9x4xf32>
  return %r : tensor<9x4xf32>
}

// CASE: tosa_concat
// INPUT: a = rand(2, 3)
// INPUT: b = rand(2, 5)
// REFERENCE: np.concatenate([a, b], axis=1)
func.func @tosa_concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %r = tosa.concat %a, %b {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// CASE: tosa_gather
// INPUT: values = rand(2, 10, 3)
// INPUT: indices = np.array([[0, 9, 4, 4], [1, 2, 3, 0]], dtype=np.int32)
// REFERENCE: np.take_along_axis(values, indices[:, :, None].repeat(3, axis=2), axis=1)
func.func @tosa_gather(%values: tensor<2x10x3xf32>, %indices: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %r = tosa.gather %values, %indices : (tensor<2x10x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}

// Gather written as a generic that reads with tensor.extract.
// CASE: gather_rows
// INPUT: table = rand(16, 8)
// INPUT: rows = np.array([3, 0, 15, 3, 7], dtype=np.int32)
// REFERENCE: table[rows]
func.func @gather_rows(%table: tensor<16x8xf32>, %rows: tensor<5xi32>) -> tensor<5x8xf32> {
  %e = tensor.empty() : tensor<5x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<5xi32>) outs(%e : tensor<5x8xf32>) {
  ^bb0(%row: i32, %o: f32):
    %ri = arith.index_cast %row : i32 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%ri, %j] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// Slicing and reshaping on the way.
// CASE: slice_reshape
// INPUT: x = rand(6, 10)
// REFERENCE: (x[1:5, 2:8] * 2.0).reshape(24)
func.func @slice_reshape(%x: tensor<6x10xf32>) -> tensor<24xf32> {
  %s = tensor.extract_slice %x[1, 2] [4, 6] [1, 1] : tensor<6x10xf32> to tensor<4x6xf32>
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %y = arith.mulf %a, %two : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  %r = tensor.collapse_shape %m [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  return %r : tensor<24xf32>
}

// Pack and unpack with tile sizes known only at run time (gathered element
// by element): a padded, transposed pack, then the unpack that undoes it.
// CASE: dynamic_tile_pack_unpack
// INPUT: x = rand(37, 50)
// INPUT: t = np.array(8, dtype=np.int64)
// REFERENCE: np.pad(x, ((0, 3), (0, 6)), constant_values=-1.0).reshape(5, 8, 7, 8).transpose(2, 0, 1, 3)
// REFERENCE: x
func.func @dynamic_tile_pack_unpack(%x: tensor<37x50xf32>, %t: tensor<i64>) -> (tensor<?x?x?x?xf32>, tensor<37x50xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %t64 = tensor.extract %t[] : tensor<i64>
  %tile = arith.index_cast %t64 : i64 to index
  %xd = tensor.cast %x : tensor<37x50xf32> to tensor<?x?xf32>
  %d0 = tensor.dim %xd, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %xd, %c1 : tensor<?x?xf32>
  %o0 = arith.ceildivui %d0, %tile : index
  %o1 = arith.ceildivui %d1, %tile : index
  %init = tensor.empty(%o1, %o0, %tile, %tile) : tensor<?x?x?x?xf32>
  %packed = linalg.pack %xd padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [%tile, %tile] into %init : tensor<?x?xf32> -> tensor<?x?x?x?xf32>
  %back_init = tensor.empty() : tensor<37x50xf32>
  %back = linalg.unpack %packed outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [%tile, %tile] into %back_init : tensor<?x?x?x?xf32> -> tensor<37x50xf32>
  return %packed, %back : tensor<?x?x?x?xf32>, tensor<37x50xf32>
}
