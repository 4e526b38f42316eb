// A two-layer perceptron in TOSA: 64 inputs, 128 hidden units with ReLU, 10
// outputs, for a batch of 8. Weights and biases are function arguments.
//
//   kiln-compile samples/mlp_tosa.mlir --compile-to=executable-sources
//
// shows each fully-connected layer's matmul fused with its bias addition
// (and, for the first layer, the ReLU) into one executable.
func.func @mlp(%x: tensor<1x8x64xf32>,
               %w1: tensor<1x64x128xf32>, %b1: tensor<1x1x128xf32>,
               %w2: tensor<1x128x10xf32>, %b2: tensor<1x1x10xf32>)
    -> tensor<1x8x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %h = tosa.matmul %x, %w1, %zp, %zp
      : (tensor<1x8x64xf32>, tensor<1x64x128xf32>, tensor<1xf32>, tensor<1xf32>)
      -> tensor<1x8x128xf32>
  %hb = tosa.add %h, %b1
      : (tensor<1x8x128xf32>, tensor<1x1x128xf32>) -> tensor<1x8x128xf32>
  %hr = tosa.clamp %hb {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32}
      : (tensor<1x8x128xf32>) -> tensor<1x8x128xf32>
  %o = tosa.matmul %hr, %w2, %zp, %zp
      : (tensor<1x8x128xf32>, tensor<1x128x10xf32>, tensor<1xf32>, tensor<1xf32>)
      -> tensor<1x8x10xf32>
  %ob = tosa.add %o, %b2
      : (tensor<1x8x10xf32>, tensor<1x1x10xf32>) -> tensor<1x8x10xf32>
  return %ob : tensor<1x8x10xf32>
}
