func.func @big() -> tensor<100000x100000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000x100000xf32>
  return %c : tensor<100000x100000xf32>
}
