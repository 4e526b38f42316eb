// RUN: kiln-compile %s --compile-to=dispatch-formation | FileCheck %s

// Two convolutions in a row: the transpose back to NCHW after the first
// and the one to NHWC before the second cancel, and the ReLU between them
// fuses into the first convolution's dispatch: two dispatches, the second
// reading the first's NHWC result, and no dispatch that only transposes
// (the filters are constants, transposed at compile time).
// CHECK-LABEL: func.func @chain
// CHECK:         %[[C1:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x8x8x4x1x1x4_f32[{{.+}}](%{{.+}}) {{.*}} -> tensor<1x8x8x4xf32>
// CHECK-NEXT:    %[[C2:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x8x8x4x1x1x4_f32[{{.+}}](%[[C1]]) {{.*}} -> tensor<1x4x8x8xf32>
// CHECK-NEXT:    return %[[C2]]
func.func @chain(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<4x4x1x1xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r, %w : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %c2 : tensor<1x4x8x8xf32>
}
