func.func @rank17(%a: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32> {
  %e = tensor.empty() : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>
  %r = linalg.exp ins(%a : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>) outs(%e : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>
  return %r : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x2xf32>
}
