// RUN: kiln-opt %s --split-input-file --kiln-pack-convolution-filters="panel-bytes=8 min-row-bytes=16 min-filter-bytes=0" | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-pack-convolution-filters | FileCheck %s --check-prefix=DEFAULT

// Panels of 8 bytes (two f32 output channels): the 1x1x2x4 filter holding
// 0..7 becomes 2 x 1x1x2x2, panel by panel, each input channel's two
// output channels contiguous; the convolution a generic over (n, oh, ow,
// fo, fi, kh, kw, c) with the strides and dilations in the image's map, its
// fill made again in five dims, its result collapsed back.
// CHECK-DAG:   #[[IMAGE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + d5 * 3, d2 + d6, d7)>
// CHECK-DAG:   #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3, d5, d6, d7, d4)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @packed
// CHECK-SAME:    (%[[X:.+]]: tensor<1x9x5x2xf32>)
// CHECK:         %[[W:.+]] = arith.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}[0.000000e+00, 1.000000e+00], [4.000000e+00, 5.000000e+00]]]], {{\[}}{{\[}}{{\[}}[2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00]]]]]> : tensor<2x1x1x2x2xf32>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x4x5x2x2xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<1x4x5x2x2xf32>)
// CHECK:         %[[G:.+]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[X]], %[[W]] : tensor<1x9x5x2xf32>, tensor<2x1x1x2x2xf32>) outs(%[[F]] : tensor<1x4x5x2x2xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x4x5x2x2xf32> into tensor<1x4x5x4xf32>
// CHECK:         return %[[R]]
// DEFAULT-LABEL: func.func @packed
// DEFAULT:         linalg.conv_2d_nhwc_hwcf
func.func @packed(%x: tensor<1x9x5x2xf32>) -> tensor<1x4x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]]]> : tensor<1x1x2x4xf32>
  %e = tensor.empty() : tensor<1x4x5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[3, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x5x2xf32>, tensor<1x1x2x4xf32>) outs(%f : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  return %r : tensor<1x4x5x4xf32>
}

// -----

// A filter in a dense_resource blob, as importers keep weights (the same
// 0..7 as above): packed all the same.
// CHECK-LABEL: func.func @resource
// CHECK:         arith.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}[0.000000e+00, 1.000000e+00], [4.000000e+00, 5.000000e+00]]]], {{\[}}{{\[}}{{\[}}[2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00]]]]]> : tensor<2x1x1x2x2xf32>
// CHECK:         linalg.generic
func.func @resource(%x: tensor<1x3x3x2xf32>) -> tensor<1x3x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense_resource<filter> : tensor<1x1x2x4xf32>
  %e = tensor.empty() : tensor<1x3x3x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x3x2xf32>, tensor<1x1x2x4xf32>) outs(%f : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      filter: "0x04000000000000000000803F0000004000004040000080400000A0400000C0400000E040"
    }
  }
#-}

// -----

// An accumulator that is not a fill of an empty tensor is expanded to the
// panels.
// CHECK-LABEL: func.func @accumulate
// CHECK-SAME:    (%[[X:.+]]: tensor<1x3x3x2xf32>, %[[ACC:.+]]: tensor<1x3x3x4xf32>)
// CHECK:         %[[A:.+]] = tensor.expand_shape %[[ACC]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 3, 3, 2, 2]
// CHECK:         linalg.generic {{.+}} outs(%[[A]] : tensor<1x3x3x2x2xf32>)
func.func @accumulate(%x: tensor<1x3x3x2xf32>, %acc: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]]]> : tensor<1x1x2x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x3x2xf32>, tensor<1x1x2x4xf32>) outs(%acc : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// -----

// Left as they are: a filter that is an argument (its layout is the
// caller's), a splat (every layout the same), output channels that are no
// whole number of panels (5 of 2), rows shorter than min-row-bytes (two
// channels: 8 bytes), and an image of another type than the filter (the
// generic would not specialize back to the named convolution in codegen).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     linalg.generic
func.func @kept(%x: tensor<1x3x3x2xf32>, %w: tensor<1x1x2x4xf32>, %h: tensor<1x3x3x2xf16>)
    -> (tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>, tensor<1x3x3x5xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %splat = arith.constant dense<1.0> : tensor<1x1x2x4xf32>
  %five = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0, 9.0]]]]> : tensor<1x1x2x5xf32>
  %two = arith.constant dense<[[[[0.0, 1.0], [2.0, 3.0]]]]> : tensor<1x1x2x2xf32>
  %four = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]]]> : tensor<1x1x2x4xf32>
  %e4 = tensor.empty() : tensor<1x3x3x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %e5 = tensor.empty() : tensor<1x3x3x5xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x3x3x5xf32>) -> tensor<1x3x3x5xf32>
  %e2 = tensor.empty() : tensor<1x3x3x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %a = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x3x3x2xf32>, tensor<1x1x2x4xf32>) outs(%f4 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %b = linalg.conv_2d_nhwc_hwcf ins(%x, %splat : tensor<1x3x3x2xf32>, tensor<1x1x2x4xf32>) outs(%f4 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf ins(%x, %five : tensor<1x3x3x2xf32>, tensor<1x1x2x5xf32>) outs(%f5 : tensor<1x3x3x5xf32>) -> tensor<1x3x3x5xf32>
  %d = linalg.conv_2d_nhwc_hwcf ins(%x, %two : tensor<1x3x3x2xf32>, tensor<1x1x2x2xf32>) outs(%f2 : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %g = linalg.conv_2d_nhwc_hwcf ins(%h, %four : tensor<1x3x3x2xf16>, tensor<1x1x2x4xf32>) outs(%f4 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %a, %b, %c, %d, %g : tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>, tensor<1x3x3x5xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x4xf32>
}

// -----

// A dynamic batch, and an accumulator and result whose type leaves the
// channel count dynamic: the accumulator is cast to the filter's 4
// channels and expanded to panels (its batch read off it), and the
// collapsed result cast back to the op's type.
// No strides or dilations written: ones.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    (%[[X:.+]]: tensor<?x3x3x2xf32>, %[[ACC:.+]]: tensor<?x3x3x?xf32>)
// CHECK:         %[[N:.+]] = tensor.dim %[[ACC]], %c0
// CHECK:         %[[S:.+]] = tensor.cast %[[ACC]] : tensor<?x3x3x?xf32> to tensor<?x3x3x4xf32>
// CHECK:         %[[A:.+]] = tensor.expand_shape %[[S]] {{\[}}[0], [1], [2], [3, 4]] output_shape [%[[N]], 3, 3, 2, 2] : tensor<?x3x3x4xf32> into tensor<?x3x3x2x2xf32>
// CHECK:         %[[G:.+]] = linalg.generic {{.+}} outs(%[[A]] : tensor<?x3x3x2x2xf32>)
// CHECK:         %[[C:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1], [2], [3, 4]] : tensor<?x3x3x2x2xf32> into tensor<?x3x3x4xf32>
// CHECK:         %[[R:.+]] = tensor.cast %[[C]] : tensor<?x3x3x4xf32> to tensor<?x3x3x?xf32>
// CHECK:         return %[[R]]
func.func @dynamic(%x: tensor<?x3x3x2xf32>, %acc: tensor<?x3x3x?xf32>) -> tensor<?x3x3x?xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]]]> : tensor<1x1x2x4xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<?x3x3x2xf32>, tensor<1x1x2x4xf32>) outs(%acc : tensor<?x3x3x?xf32>) -> tensor<?x3x3x?xf32>
  return %r : tensor<?x3x3x?xf32>
}
