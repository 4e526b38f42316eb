// Ops without a linalg root: a fill returned to the host, a pad, a concat.
func.func @data_movement(%a: tensor<4x4xf32>, %b: tensor<?xf32>, %c: tensor<3xf32>) -> (tensor<8xf32>, tensor<6x6xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  %cat = tensor.concat dim(0) %b, %c : (tensor<?xf32>, tensor<3xf32>) -> tensor<?xf32>
  return %f, %p, %cat : tensor<8xf32>, tensor<6x6xf32>, tensor<?xf32>
}
