// A splat of 40 GB becomes a fill; nothing writes out its elements.
func.func @huge() -> tensor<100000x100000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000x100000xf32>
  return %c : tensor<100000x100000xf32>
}
