// Softmax: row max, exp of the difference, row sum, division.

// A pack whose tiles divide the source: a reshape and a transpose.

// A concatenation: each operand inserted at its offset.

// Everything else stays.
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
func.func @pack(%x: tensor<16x32xf32>) -> tensor<2x4x8x8xf32> {
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %r = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<16x32xf32> -> tensor<2x4x8x8xf32>
  return %r : tensor<2x4x8x8xf32>
}
func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %r = tensor.concat dim(1) %a, %b : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @matmul(%a: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
