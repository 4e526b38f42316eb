// A small convolutional network in TOSA for 28x28 grayscale images (a batch
// of 8): two 3x3 convolutions (16 and 32 channels, bias, ReLU), each
// followed by 2x2 max pooling, then a fully-connected layer to 10 classes.
// Weights and biases are arguments.
//
//   kiln-compile samples/models/cnn_tosa.mlir -o cnn.so
//
// The cases below (run by test/samples/models.test) compare it with numpy.
//
//

func.func @cnn(%x: tensor<8x28x28x1xf32>,
               %w1: tensor<16x3x3x1xf32>, %b1: tensor<16xf32>,
               %w2: tensor<32x3x3x16xf32>, %b2: tensor<32xf32>,
               %w3: tensor<1x1568x10xf32>, %b3: tensor<1x1x10xf32>)
    -> tensor<1x8x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>

  %c1 = tosa.conv2d %x, %w1, %b1, %zp, %zp
      {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<8x28x28x1xf32>, tensor<16x3x3x1xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>)
      -> tensor<8x28x28x16xf32>
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32}
      : (tensor<8x28x28x16xf32>) -> tensor<8x28x28x16xf32>
  %p1 = tosa.max_pool2d %r1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<8x28x28x16xf32>) -> tensor<8x14x14x16xf32>

  %c2 = tosa.conv2d %p1, %w2, %b2, %zp, %zp
      {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
      : (tensor<8x14x14x16xf32>, tensor<32x3x3x16xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>)
      -> tensor<8x14x14x32xf32>
  %r2 = tosa.clamp %c2 {min_val = 0.0 : f32, max_val = 3.4028235e38 : f32}
      : (tensor<8x14x14x32xf32>) -> tensor<8x14x14x32xf32>
  %p2 = tosa.max_pool2d %r2 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>}
      : (tensor<8x14x14x32xf32>) -> tensor<8x7x7x32xf32>

  %shape = tosa.const_shape {values = dense<[1, 8, 1568]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %flat = tosa.reshape %p2, %shape : (tensor<8x7x7x32xf32>, !tosa.shape<3>) -> tensor<1x8x1568xf32>
  %fc = tosa.matmul %flat, %w3, %zp, %zp
      : (tensor<1x8x1568xf32>, tensor<1x1568x10xf32>, tensor<1xf32>, tensor<1xf32>)
      -> tensor<1x8x10xf32>
  %logits = tosa.add %fc, %b3 : (tensor<1x8x10xf32>, tensor<1x1x10xf32>) -> tensor<1x8x10xf32>
  return %logits : tensor<1x8x10xf32>
}
