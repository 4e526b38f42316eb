// relu(A * B + bias) in linalg on tensors, with a dynamic number of rows.
//
//   kiln-compile samples/matmul_bias_relu.mlir --compile-to=executable-sources
//
// shows the matmul, the broadcast bias addition and the ReLU fused into one
// executable, the number of rows passed from the host as workload.
func.func @matmul_bias_relu(%a: tensor<?x256xf32>, %b: tensor<256x512xf32>,
                            %bias: tensor<512xf32>) -> tensor<?x512xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x256xf32>
  %empty = tensor.empty(%m) : tensor<?x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x512xf32>)
      -> tensor<?x512xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x256xf32>, tensor<256x512xf32>)
      outs(%acc : tensor<?x512xf32>) -> tensor<?x512xf32>
  %bias_rows = linalg.broadcast ins(%bias : tensor<512xf32>)
      outs(%empty : tensor<?x512xf32>) dimensions = [0]
  %biased = linalg.add ins(%mm, %bias_rows : tensor<?x512xf32>, tensor<?x512xf32>)
      outs(%empty : tensor<?x512xf32>) -> tensor<?x512xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x512xf32>)
      -> tensor<?x512xf32>
  %relu = linalg.max ins(%biased, %zeros : tensor<?x512xf32>, tensor<?x512xf32>)
      outs(%empty : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %relu : tensor<?x512xf32>
}
