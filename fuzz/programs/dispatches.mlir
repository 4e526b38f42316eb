// The program the tuning_spec and preprocessed_executable fuzzers compile:
// a matmul with its bias and ReLU (dynamic rows), a row sum (a reduction)
// and an elementwise op on integers, so three executables of different
// kinds.
func.func @main(%a: tensor<?x64xf32>, %b: tensor<64x32xf32>,
                %bias: tensor<32xf32>, %x: tensor<16xi32>)
    -> (tensor<?x32xf32>, tensor<?xf32>, tensor<16xi32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x64xf32>
  %empty = tensor.empty(%m) : tensor<?x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x32xf32>)
      -> tensor<?x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x32xf32>)
      outs(%acc : tensor<?x32xf32>) -> tensor<?x32xf32>
  %bias_rows = linalg.broadcast ins(%bias : tensor<32xf32>)
      outs(%empty : tensor<?x32xf32>) dimensions = [0]
  %biased = linalg.add ins(%mm, %bias_rows : tensor<?x32xf32>, tensor<?x32xf32>)
      outs(%empty : tensor<?x32xf32>) -> tensor<?x32xf32>
  %relu = linalg.max ins(%biased, %acc : tensor<?x32xf32>, tensor<?x32xf32>)
      outs(%empty : tensor<?x32xf32>) -> tensor<?x32xf32>
  %rows = tensor.empty(%m) : tensor<?xf32>
  %rows0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<?xf32>)
      -> tensor<?xf32>
  %sum = linalg.reduce ins(%a : tensor<?x64xf32>) outs(%rows0 : tensor<?xf32>)
      dimensions = [1]
      (%in: f32, %out: f32) {
        %s = arith.addf %in, %out : f32
        linalg.yield %s : f32
      }
  %y0 = tensor.empty() : tensor<16xi32>
  %y = linalg.mul ins(%x, %x : tensor<16xi32>, tensor<16xi32>)
      outs(%y0 : tensor<16xi32>) -> tensor<16xi32>
  return %relu, %sum, %y : tensor<?x32xf32>, tensor<?xf32>, tensor<16xi32>
}
