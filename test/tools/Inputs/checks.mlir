// Test functions for kiln-run --check: some pass, some fail, in IREE's
// check syntax and in Kiln's.
func.func @passes() {
  %a = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = arith.addi %a, %a : tensor<3xi32>
  check.expect_eq_const(%b, dense<[2, 4, 6]> : tensor<3xi32>) : tensor<3xi32>
  %f = util.unfoldable_constant dense<[0.5, 1.5]> : tensor<2xf32>
  %g = arith.mulf %f, %f : tensor<2xf32>
  check.expect_almost_eq_const(%g, dense<[0.25, 2.2501]> : tensor<2xf32>, atol 1.0e-3) : tensor<2xf32>
  return
}

func.func @fails_eq() {
  %a = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %b = arith.muli %a, %a : tensor<2x2xi32>
  check.expect_eq_const(%b, dense<[[1, 4], [9, 15]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

func.func @fails_almost_eq() {
  %f = util.unfoldable_constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %g = arith.addf %f, %f : tensor<3xf32>
  check.expect_almost_eq_const(%g, dense<[2.0, 4.1, 6.2]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @fails_true() {
  %zero = util.unfoldable_constant 0 : i32
  check.expect_true(%zero) : i32
  check.expect_false(%zero) : i32
  return
}

func.func @shape_mismatch() {
  %a = util.unfoldable_constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %d = flow.tensor.dynamic_constant dense<[1.0, 2.0]> : tensor<2xf32> -> tensor<?xf32>
  %c = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  kiln.check eq(%c, %d) : tensor<?xf32>, tensor<?xf32>
  return
}

// Not a test: it takes an input.
func.func @double(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = arith.addf %x, %x : tensor<3xf32>
  %expected = arith.constant dense<[2.0, 4.0, 6.0]> : tensor<3xf32>
  kiln.check eq(%y, %expected) : tensor<3xf32>, tensor<3xf32>
  return %y : tensor<3xf32>
}
