func.func @legal(%a: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %e = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    %p = ub.poison : tensor<4xf32>
    scf.yield %p : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
