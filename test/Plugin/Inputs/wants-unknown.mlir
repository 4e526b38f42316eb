// A program that needs a plugin nobody has.
module attributes {kiln.plugins = ["no_such_plugin"]} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
