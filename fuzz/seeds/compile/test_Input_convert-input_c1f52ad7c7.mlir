// TOSA's control flow becomes scf, its reshapes tensor ops, its constants
// arith constants.
func.func @tosa_control_flow(%c: tensor<i1>, %a: tensor<2x2xf32>) -> tensor<4xf32> {
  %r = tosa.cond_if %c : tensor<i1> -> tensor<4xf32> {
    %shape = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %flat = tosa.reshape %a, %shape : (tensor<2x2xf32>, !tosa.shape<1>) -> tensor<4xf32>
    tosa.yield %flat : tensor<4xf32>
  } else {
    %ones = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
    tosa.yield %ones : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
