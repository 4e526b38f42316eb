// A program with an op of the test_up dialect (an upstream dialect plugin).
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  "test_up.marker"() : () -> ()
  return %a : tensor<4xf32>
}
