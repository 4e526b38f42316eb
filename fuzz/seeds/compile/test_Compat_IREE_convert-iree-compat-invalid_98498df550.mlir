func.func @reshaping_bitcast(%a: tensor<4x2xi8>) -> tensor<2x8xi4> {
  %b = flow.tensor.bitcast %a : tensor<4x2xi8> -> tensor<2x8xi4>
  return %b : tensor<2x8xi4>
}
