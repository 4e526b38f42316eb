// Dispatches inside host control flow; scalar reads and reshapes stay on
// the host; unused compute is dropped.
func.func @host_control_flow(%c: tensor<i1>, %a: tensor<2x2xf32>) -> tensor<4xf32> {
  %cond = tensor.extract %c[] : tensor<i1>
  %unused = linalg.sqrt ins(%a : tensor<2x2xf32>) outs(%a : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = scf.if %cond -> tensor<4xf32> {
    %flat = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %exp = linalg.exp ins(%flat : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %exp : tensor<4xf32>
  } else {
    %flat = tensor.collapse_shape %a [[0, 1]] : tensor<2x2xf32> into tensor<4xf32>
    scf.yield %flat : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
