// A multi-layer perceptron for 28x28 images: 784 inputs, hidden layers of
// 512 and 256 units with ReLU, 10 class probabilities (softmax), for any
// batch size. Weights and biases are arguments, so one module serves any
// trained weights.
//
//   kiln-compile samples/models/mlp.mlir -o mlp.so
//   kiln-run mlp.so --input=@images.npy --input=@w1.npy ...
//
// Each layer is one dispatch: the matmul with its bias and ReLU fused.
// The cases below (run by test/samples/models.test) compare it with numpy.
//
//

#rows = affine_map<(i, j) -> (i, j)>
#bias = affine_map<(i, j) -> (j)>

func.func @mlp(%x: tensor<?x784xf32>,
               %w1: tensor<784x512xf32>, %b1: tensor<512xf32>,
               %w2: tensor<512x256xf32>, %b2: tensor<256xf32>,
               %w3: tensor<256x10xf32>, %b3: tensor<10xf32>)
    -> tensor<?x10xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x784xf32>

  %e1 = tensor.empty(%n) : tensor<?x512xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x512xf32>) -> tensor<?x512xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<?x784xf32>, tensor<784x512xf32>)
      outs(%z1 : tensor<?x512xf32>) -> tensor<?x512xf32>
  %h1 = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<?x512xf32>, tensor<512xf32>) outs(%e1 : tensor<?x512xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x512xf32>

  %e2 = tensor.empty(%n) : tensor<?x256xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %m2 = linalg.matmul ins(%h1, %w2 : tensor<?x512xf32>, tensor<512x256xf32>)
      outs(%z2 : tensor<?x256xf32>) -> tensor<?x256xf32>
  %h2 = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<?x256xf32>, tensor<256xf32>) outs(%e2 : tensor<?x256xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x256xf32>

  %e3 = tensor.empty(%n) : tensor<?x10xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %m3 = linalg.matmul ins(%h2, %w3 : tensor<?x256xf32>, tensor<256x10xf32>)
      outs(%z3 : tensor<?x10xf32>) -> tensor<?x10xf32>
  %logits = linalg.generic {indexing_maps = [#rows, #bias, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%m3, %b3 : tensor<?x10xf32>, tensor<10xf32>) outs(%e3 : tensor<?x10xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x10xf32>
  %probabilities = linalg.softmax dimension(1)
      ins(%logits : tensor<?x10xf32>) outs(%e3 : tensor<?x10xf32>) -> tensor<?x10xf32>
  return %probabilities : tensor<?x10xf32>
}
