func.func @wide(%a: tensor<2xi128>) {
  check.expect_eq(%a, %a) : tensor<2xi128>
  return
}
