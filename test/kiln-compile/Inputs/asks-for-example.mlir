// A program that asks for the example plugin.
module attributes {kiln.plugins = ["example"]} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
