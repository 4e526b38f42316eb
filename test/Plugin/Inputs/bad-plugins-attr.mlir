// kiln.plugins must be an array of ids.
module attributes {kiln.plugins = "example"} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
