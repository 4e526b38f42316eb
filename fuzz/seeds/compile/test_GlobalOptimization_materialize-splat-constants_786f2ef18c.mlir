// A size past 2^63 bytes counts as large, not as an overflowed small one.
func.func @overflow() -> tensor<4294967296x4294967296xf64> {
  %c = arith.constant dense<0.5> : tensor<4294967296x4294967296xf64>
  return %c : tensor<4294967296x4294967296xf64>
}
