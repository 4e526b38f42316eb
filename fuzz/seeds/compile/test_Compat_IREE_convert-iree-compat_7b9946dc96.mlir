// Unfoldable constants and dynamic constants hide behind barriers; IREE's
// barrier becomes Kiln's.

// tie_shape only names sizes.

// Bitcasts: elementwise between types of one width; unpacking two f4 per
// byte, the first in the low bits.

// Packing: two f4 into each byte.

// Checks: tolerances kept; types the runtime does not compare widened
// exactly (i4 sign-extended to i8, f8 extended to f32).
func.func @constants() -> (tensor<3xi32>, index, tensor<?x2xf32>) {
  %c = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %n = util.unfoldable_constant 4 : index
  %d = flow.tensor.dynamic_constant dense<1.0> : tensor<4x2xf32> -> tensor<?x2xf32>
  %b = util.optimization_barrier %c : tensor<3xi32>
  return %b, %n, %d : tensor<3xi32>, index, tensor<?x2xf32>
}
func.func @tie(%t: tensor<?x?xi32>, %h: index, %w: index) -> tensor<?x?xi32> {
  %r = flow.tensor.tie_shape %t : tensor<?x?xi32>{%h, %w}
  return %r : tensor<?x?xi32>
}
func.func @bitcasts(%a: tensor<4xi8>, %b: tensor<4xf32>) -> (tensor<8xf4E2M1FN>, tensor<4xi32>) {
  %f4 = flow.tensor.bitcast %a : tensor<4xi8> -> tensor<8xf4E2M1FN>
  %i = flow.tensor.bitcast %b : tensor<4xf32> -> tensor<4xi32>
  return %f4, %i : tensor<8xf4E2M1FN>, tensor<4xi32>
}
func.func @pack_f4(%a: tensor<8xf4E2M1FN>) -> tensor<4xi8> {
  %i8 = flow.tensor.bitcast %a : tensor<8xf4E2M1FN> -> tensor<4xi8>
  return %i8 : tensor<4xi8>
}
func.func @checks(%a: tensor<4xf32>, %i: tensor<2xi4>, %x: index, %f8: tensor<2xf8E4M3FN>, %p: i32) {
  check.expect_almost_eq_const(%a, dense<1.0> : tensor<4xf32>, atol 1.0e-2, rtol 1.0e-3) : tensor<4xf32>
  check.expect_almost_eq(%a, %a) : tensor<4xf32>
  check.expect_eq_const(%i, dense<[1, -2]> : tensor<2xi4>) : tensor<2xi4>
  check.expect_eq(%f8, %f8) : tensor<2xf8E4M3FN>
  check.expect_true(%p) : i32
  check.expect_false(%p) : i32
  return
}
