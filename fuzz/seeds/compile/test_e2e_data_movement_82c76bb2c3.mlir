func.func @transpose(%x: tensor<7x33x5xf32>) -> tensor<5x7x33xf32> {
  %e = tensor.empty() : tensor<5x7x33xf32>
  %r = linalg.transpose ins(%x : tensor<7x33x5xf32>) outs(%e : tensor<5x7x33xf32>) permutation = [2, 0, 1]
  return %r : tensor<5x7x33xf32>
}

func.func @tosa_transpose(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %r = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

func.func @pad(%x: tensor<5x6xf32>) -> tensor<8x9xf32> {
  %seven = arith.constant 7.0 : f32
  %r = tensor.pad %x low[1, 3] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %seven : f32
  } : tensor<5x6xf32> to tensor<8x9xf32>
  return %r : tensor<8x9xf32>
}

func.func @tosa_pad(%x: tensor<3x4xi32>) -> tensor<4x8xi32> {
  %padding = tosa.const_shape {values = dense<[0, 1, 2, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %value = "tosa.const"() <{values = dense<-1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r = tosa.pad %x, %padding, %value : (tensor<3x4xi32>, !tosa.shape<4>, tensor<1xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}

func.func @concat(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>, %c: tensor<1x4xf32>) -> tensor<9x4xf32> {
  %r = tensor.concat dim(0) %a, %b, %c : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<1x4xf32>) -> tensor<9x4xf32>
  return %r : tensor<9x4xf32>
}

func.func @tosa_concat(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x8xf32> {
  %r = tosa.concat %a, %b {axis = 1 : i32} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

func.func @tosa_gather(%values: tensor<2x10x3xf32>, %indices: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %r = tosa.gather %values, %indices : (tensor<2x10x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}

// Gather written as a generic that reads with tensor.extract.
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
