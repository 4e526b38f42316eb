// Pack and unpack are roots; the workload of a pack is its outer loops.
func.func @pack_unpack(%a: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<4x2x8x16xf32>
  %p = linalg.pack %a inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e : tensor<32x32xf32> -> tensor<4x2x8x16xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 16] into %e2 : tensor<4x2x8x16xf32> -> tensor<32x32xf32>
  return %u : tensor<32x32xf32>
}
