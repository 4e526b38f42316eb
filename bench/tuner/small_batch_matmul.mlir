// A small space for bench/tuner_validation.py: 512 batches of 2x16x256
// (15 configs on the Zen 3 VM).
func.func @main(%a: tensor<512x2x256xf32>, %b: tensor<512x256x16xf32>) -> tensor<512x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x2x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512x2x16xf32>) -> tensor<512x2x16xf32>
  %m = linalg.batch_matmul ins(%a, %b : tensor<512x2x256xf32>, tensor<512x256x16xf32>) outs(%f : tensor<512x2x16xf32>) -> tensor<512x2x16xf32>
  return %m : tensor<512x2x16xf32>
}
