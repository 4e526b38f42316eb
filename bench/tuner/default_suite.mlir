// The shape suite kiln-tune search tuned Kiln's default spec for a CPU
// with (lib/TuningSpecs/Defaults/znver3.mlir): f32 matmuls of BERT-base and
// square ones, BERT's attention batch matmuls, and ResNet-18's
// convolutions (NHWC, HWCF), each independent of the others.
//
//   kiln-tune search bench/tuner/default_suite.mlir -o spec.mlir \
//       --coverage=1 --max-dispatches=16 --max-candidates=64 \
//       --time-budget=1500 --db=suite.jsonl
func.func @main(%a0: tensor<128x768xf32>, %b0: tensor<768x768xf32>, %a1: tensor<128x768xf32>, %b1: tensor<768x3072xf32>, %a2: tensor<128x3072xf32>, %b2: tensor<3072x768xf32>, %a3: tensor<256x256xf32>, %b3: tensor<256x256xf32>, %a4: tensor<512x512xf32>, %b4: tensor<512x512xf32>, %a5: tensor<1024x1024xf32>, %b5: tensor<1024x1024xf32>, %ba0: tensor<12x128x64xf32>, %bb0: tensor<12x64x128xf32>, %ba1: tensor<12x128x128xf32>, %bb1: tensor<12x128x64xf32>, %x0: tensor<1x58x58x64xf32>, %w0: tensor<3x3x64x64xf32>, %x1: tensor<1x30x30x128xf32>, %w1: tensor<3x3x128x128xf32>, %x2: tensor<1x16x16x256xf32>, %w2: tensor<3x3x256x256xf32>, %x3: tensor<1x229x229x3xf32>, %w3: tensor<7x7x3x64xf32>, %x4: tensor<1x57x57x64xf32>, %w4: tensor<3x3x64x128xf32>) -> (tensor<128x768xf32>, tensor<128x3072xf32>, tensor<128x768xf32>, tensor<256x256xf32>, tensor<512x512xf32>, tensor<1024x1024xf32>, tensor<12x128x128xf32>, tensor<12x128x64xf32>, tensor<1x56x56x64xf32>, tensor<1x28x28x128xf32>, tensor<1x14x14x256xf32>, tensor<1x112x112x64xf32>, tensor<1x28x28x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<128x768xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %mm0 = linalg.matmul ins(%a0, %b0 : tensor<128x768xf32>, tensor<768x768xf32>) outs(%f1 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %e2 = tensor.empty() : tensor<128x3072xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %mm1 = linalg.matmul ins(%a1, %b1 : tensor<128x768xf32>, tensor<768x3072xf32>) outs(%f2 : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %e3 = tensor.empty() : tensor<128x768xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %mm2 = linalg.matmul ins(%a2, %b2 : tensor<128x3072xf32>, tensor<3072x768xf32>) outs(%f3 : tensor<128x768xf32>) -> tensor<128x768xf32>
  %e4 = tensor.empty() : tensor<256x256xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %mm3 = linalg.matmul ins(%a3, %b3 : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f4 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e5 = tensor.empty() : tensor<512x512xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %mm4 = linalg.matmul ins(%a4, %b4 : tensor<512x512xf32>, tensor<512x512xf32>) outs(%f5 : tensor<512x512xf32>) -> tensor<512x512xf32>
  %e6 = tensor.empty() : tensor<1024x1024xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %mm5 = linalg.matmul ins(%a5, %b5 : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%f6 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %e7 = tensor.empty() : tensor<12x128x128xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %bmm0 = linalg.batch_matmul ins(%ba0, %bb0 : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%f7 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %e8 = tensor.empty() : tensor<12x128x64xf32>
  %f8 = linalg.fill ins(%zero : f32) outs(%e8 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %bmm1 = linalg.batch_matmul ins(%ba1, %bb1 : tensor<12x128x128xf32>, tensor<12x128x64xf32>) outs(%f8 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %e9 = tensor.empty() : tensor<1x56x56x64xf32>
  %f9 = linalg.fill ins(%zero : f32) outs(%e9 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %conv0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x0, %w0 : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%f9 : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %e10 = tensor.empty() : tensor<1x28x28x128xf32>
  %f10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %conv1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x1, %w1 : tensor<1x30x30x128xf32>, tensor<3x3x128x128xf32>) outs(%f10 : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %e11 = tensor.empty() : tensor<1x14x14x256xf32>
  %f11 = linalg.fill ins(%zero : f32) outs(%e11 : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %conv2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x2, %w2 : tensor<1x16x16x256xf32>, tensor<3x3x256x256xf32>) outs(%f11 : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  %e12 = tensor.empty() : tensor<1x112x112x64xf32>
  %f12 = linalg.fill ins(%zero : f32) outs(%e12 : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  %conv3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x3, %w3 : tensor<1x229x229x3xf32>, tensor<7x7x3x64xf32>) outs(%f12 : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  %e13 = tensor.empty() : tensor<1x28x28x128xf32>
  %f13 = linalg.fill ins(%zero : f32) outs(%e13 : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %conv4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x4, %w4 : tensor<1x57x57x64xf32>, tensor<3x3x64x128xf32>) outs(%f13 : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %mm0, %mm1, %mm2, %mm3, %mm4, %mm5, %bmm0, %bmm1, %conv0, %conv1, %conv2, %conv3, %conv4 : tensor<128x768xf32>, tensor<128x3072xf32>, tensor<128x768xf32>, tensor<256x256xf32>, tensor<512x512xf32>, tensor<1024x1024xf32>, tensor<12x128x128xf32>, tensor<12x128x64xf32>, tensor<1x56x56x64xf32>, tensor<1x28x28x128xf32>, tensor<1x14x14x256xf32>, tensor<1x112x112x64xf32>, tensor<1x28x28x128xf32>
}
