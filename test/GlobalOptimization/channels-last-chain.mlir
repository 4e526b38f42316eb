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

// A grouped convolution between two convolutions (ResNeXt's bottleneck,
// NCHW, its groups split and merged by reshapes): the activations stay
// channels-last, the reshapes become reshapes of NHWC tensors (NHWC to
// NHWGC and back), and no dispatch between the convolutions transposes.
// CHECK-LABEL: func.func @grouped_chain
// CHECK:         %[[C1:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x8x8x4x1x1x4_f32[{{.+}}](%{{.+}}) {{.*}} -> tensor<1x8x8x4xf32>
// CHECK-NEXT:    %[[G:.+]] = tensor.expand_shape %[[C1]] {{\[\[}}0], [1], [2], [3, 4]] {{.*}} into tensor<1x8x8x2x2xf32>
// CHECK-NEXT:    %[[C2:.+]] = kiln.dispatch @{{.+}}convolution_1x6x6x2x2x3x3x2_f32[{{.+}}](%[[G]]) {{.*}} -> tensor<1x6x6x2x2xf32>
// CHECK-NEXT:    %[[M:.+]] = tensor.collapse_shape %[[C2]] {{\[\[}}0], [1], [2], [3, 4]] {{.*}} into tensor<1x6x6x4xf32>
// CHECK-NEXT:    %[[C3:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x6x6x4x1x1x4_f32[{{.+}}](%[[M]]) {{.*}} -> tensor<1x4x6x6xf32>
// CHECK-NEXT:    return %[[C3]]
func.func @grouped_chain(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<4x4x1x1xf32>
  %wg = arith.constant dense<0.25> : tensor<2x2x2x3x3xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) outs(%f : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %xe = tensor.expand_shape %c1 [[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  %e2 = tensor.empty() : tensor<1x2x2x6x6xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x2x6x6xf32>) -> tensor<1x2x2x6x6xf32>
  %c2 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xe, %wg : tensor<1x2x2x8x8xf32>, tensor<2x2x2x3x3xf32>) outs(%f2 : tensor<1x2x2x6x6xf32>) -> tensor<1x2x2x6x6xf32>
  %cc = tensor.collapse_shape %c2 [[0], [1, 2], [3], [4]] : tensor<1x2x2x6x6xf32> into tensor<1x4x6x6xf32>
  %e3 = tensor.empty() : tensor<1x4x6x6xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%cc, %w : tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) outs(%f3 : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %c3 : tensor<1x4x6x6xf32>
}

// A squeeze-and-excitation block (MobileNetV3, PP-OCR): the activation
// after the first convolution feeds both the global pooling and the
// scaling. Every tensor between the convolutions stays channels-last: the
// pooling reduces the NHWC result in place (channels innermost), the
// scaling reads it and the scale, and only the graph's input and output
// are transposed.
// CHECK-LABEL: func.func @squeeze_excitation
// CHECK:         %[[IN:.+]] = kiln.dispatch @{{.+}}elementwise_1x4x4x8_f32[{{.+}}](%{{.+}}) : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT:    %[[C1:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x4x4x8x1x1x8_f32[{{.+}}](%[[IN]]) {{.*}} -> tensor<1x4x4x8xf32>
// CHECK-NEXT:    %[[E:.+]] = tensor.expand_shape %[[C1]] {{.*}} into tensor<1x4x4x1x1x8xf32>
// CHECK-NEXT:    %[[P:.+]] = kiln.dispatch @{{.+}}reduction_1x4x4x1x1x8_f32[{{.+}}](%[[E]]) : (tensor<1x4x4x1x1x8xf32>) -> tensor<1x1x1x8xf32>
// CHECK-NEXT:    %[[S:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x1x1x8x1x1x8_f32[{{.+}}](%[[P]]) {{.*}} -> tensor<1x1x1x8xf32>
// CHECK-NEXT:    %[[R:.+]] = kiln.dispatch @{{.+}}elementwise_1x4x4x8_f32[{{.+}}](%[[C1]], %[[S]]) : (tensor<1x4x4x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT:    %[[C2:.+]] = kiln.dispatch @{{.+}}conv_2d_nhwc_hwcf_1x4x4x8x1x1x8_f32[{{.+}}](%[[R]]) {{.*}} -> tensor<1x8x4x4xf32>
// CHECK-NEXT:    return %[[C2]]
func.func @squeeze_excitation(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x8x1x1xf32>
  %ws = arith.constant dense<0.25> : tensor<8x8x1x1xf32>
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x8x4x4xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %pe = tensor.empty() : tensor<1x8xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8xf32>) -> tensor<1x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a : tensor<1x8x4x4xf32>) outs(%pf : tensor<1x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  %pv = tensor.expand_shape %p [[0], [1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<1x8xf32> into tensor<1x8x1x1xf32>
  %se = tensor.empty() : tensor<1x8x1x1xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %s = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pv, %ws : tensor<1x8x1x1xf32>, tensor<8x8x1x1xf32>) outs(%sf : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, 0, 0)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%v: f32, %y: f32, %o: f32):
    %m = arith.mulf %v, %y : f32
    linalg.yield %m : f32
  } -> tensor<1x8x4x4xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r, %w : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %c2 : tensor<1x8x4x4xf32>
}
