// Two matmuls of one shape (one executable, launched twice) and the sum of
// their products: what a profile and a trace show.
func.func @main(%a: tensor<64x128xf32>, %b: tensor<128x64xf32>, %c: tensor<64x128xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m1 = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x64xf32>)
      outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m2 = linalg.matmul ins(%c, %b : tensor<64x128xf32>, tensor<128x64xf32>)
      outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = linalg.add ins(%m1, %m2 : tensor<64x64xf32>, tensor<64x64xf32>)
      outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %s : tensor<64x64xf32>
}
