// An elementwise producer of a matmul operand is not fused: the matmul reads
// each element of A once per tile along N, so fusing would recompute it.
// Two matmuls in a chain are two dispatches; the ReLU between them fuses
// into the first.
func.func @two_layers(%x: tensor<4x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %ex = tensor.empty() : tensor<4x16xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x16xf32>) outs(%ex : tensor<4x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %two : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  %e1 = tensor.empty() : tensor<4x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %h = linalg.matmul ins(%scaled, %w1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.maximumf %v, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = linalg.matmul ins(%relu, %w2 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
