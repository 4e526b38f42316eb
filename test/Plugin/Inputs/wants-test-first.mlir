// A program that needs the test_first plugin.
module attributes {kiln.plugins = ["test_first"]} {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
