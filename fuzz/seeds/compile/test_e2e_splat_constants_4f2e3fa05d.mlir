// Large splat constants are filled in at run time instead of being written
// out in the module (MaterializeSplatConstants); the numbers stay the same.

// A splat returned as it is.
func.func @returned_splat() -> tensor<300x500xf32> {
  %c = arith.constant dense<2.5> : tensor<300x500xf32>
  return %c : tensor<300x500xf32>
}

// A splat an elementwise op consumes: fused into a scalar.
func.func @splat_operand(%x: tensor<300x500xf32>) -> tensor<300x500xf32> {
  %c = arith.constant dense<1.5> : tensor<300x500xf32>
  %e = tensor.empty() : tensor<300x500xf32>
  %r = linalg.add ins(%x, %c : tensor<300x500xf32>, tensor<300x500xf32>) outs(%e : tensor<300x500xf32>) -> tensor<300x500xf32>
  return %r : tensor<300x500xf32>
}

// A splat matrix operand of a matmul.
func.func @splat_matmul_operand(%x: tensor<20x300xf32>) -> tensor<20x257xf32> {
  %c = arith.constant dense<0.5> : tensor<300x257xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<20x257xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<20x257xf32>) -> tensor<20x257xf32>
  %r = linalg.matmul ins(%x, %c : tensor<20x300xf32>, tensor<300x257xf32>) outs(%f : tensor<20x257xf32>) -> tensor<20x257xf32>
  return %r : tensor<20x257xf32>
}

// Integer splats.
func.func @integer_splats(%x: tensor<2000xi32>) -> tensor<2000xi32> {
  %three = arith.constant dense<3> : tensor<2000xi32>
  %seven = arith.constant dense<7> : tensor<2000xi32>
  %e = tensor.empty() : tensor<2000xi32>
  %m = linalg.mul ins(%x, %three : tensor<2000xi32>, tensor<2000xi32>) outs(%e : tensor<2000xi32>) -> tensor<2000xi32>
  %r = linalg.add ins(%m, %seven : tensor<2000xi32>, tensor<2000xi32>) outs(%e : tensor<2000xi32>) -> tensor<2000xi32>
  return %r : tensor<2000xi32>
}
