// Elementwise arith on tensors becomes linalg and fuses; duplicates go.
func.func @arith_on_tensors(%a: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = arith.mulf %a, %b : tensor<8xf32>
  %1 = arith.addf %0, %a : tensor<8xf32>
  %2 = arith.mulf %a, %b : tensor<8xf32>
  %3 = arith.addf %2, %a : tensor<8xf32>
  return %1, %3 : tensor<8xf32>, tensor<8xf32>
}

// Private functions are inlined into their callers, where their shapes
// specialize, and removed.
func.func private @helper(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.exp ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<?xf32> {
  %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
  %r = call @helper(%d) : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
