// One page of splat and less stays a constant; a byte more does not.
func.func @page() -> (tensor<1024xi32>, tensor<4097xi8>) {
  %a = arith.constant dense<7> : tensor<1024xi32>
  %b = arith.constant dense<-1> : tensor<4097xi8>
  return %a, %b : tensor<1024xi32>, tensor<4097xi8>
}
