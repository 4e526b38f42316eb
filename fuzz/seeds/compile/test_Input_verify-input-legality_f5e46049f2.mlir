// A TOSA op that TOSA-to-linalg does not convert.
func.func @tosa_custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.custom %a {domain_name = "acme", operator_name = "warp", implementation_attrs = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
