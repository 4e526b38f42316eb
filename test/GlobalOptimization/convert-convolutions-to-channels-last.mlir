// RUN: kiln-opt %s --split-input-file --kiln-convert-convolutions-to-channels-last | FileCheck %s

// An NCHW convolution becomes an NHWC one between transposes: the image to
// NHWC, the filter to HWCF, the result back; the accumulator, a fill of an
// empty tensor, is filled again in NHWC.
// CHECK-LABEL: func.func @conv
// CHECK-SAME:    (%[[X:.+]]: tensor<1x3x9x9xf32>, %[[W:.+]]: tensor<8x3x3x3xf32>)
// CHECK:         %[[XT:.+]] = linalg.transpose ins(%[[X]] : tensor<1x3x9x9xf32>) outs(%{{.+}} : tensor<1x9x9x3xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<8x3x3x3xf32>) outs(%{{.+}} : tensor<3x3x3x8xf32>) permutation = [2, 3, 1, 0]
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x4x4x8xf32>)
// CHECK:         %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XT]], %[[WT]] : {{.+}}) outs(%[[F]] : tensor<1x4x4x8xf32>)
// CHECK:         %[[R:.+]] = linalg.transpose ins(%[[C]] : tensor<1x4x4x8xf32>) outs(%{{.+}} : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
// CHECK:         return %[[R]]
func.func @conv(%x: tensor<1x3x9x9xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// A constant filter is transposed here (w[f][c] becomes w[c][f]); padding
// moves after the image's transpose, its pads permuted along.
// CHECK-LABEL: func.func @padded_constant_filter
// CHECK:         %[[XT:.+]] = linalg.transpose ins(%{{.+}} : tensor<1x2x4x4xf32>) outs(%{{.+}} : tensor<1x4x4x2xf32>)
// CHECK:         %[[P:.+]] = tensor.pad %[[XT]] low[0, 1, 2, 0] high[0, 1, 2, 0]
// CHECK:         %[[WT:.+]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]]]> : tensor<1x1x2x2xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %[[WT]] : tensor<1x6x8x2xf32>, tensor<1x1x2x2xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @padded_constant_filter(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
  %p = tensor.pad %x low[0, 0, 1, 2] high[0, 0, 1, 2] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x8xf32>
  %e = tensor.empty() : tensor<1x2x6x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x2x6x8xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x6x8xf32>) -> tensor<1x2x6x8xf32>
  return %r : tensor<1x2x6x8xf32>
}

// -----

// Depthwise convolutions and pooling too (the pooling window is a shape
// and stays as it is).
// CHECK-LABEL: func.func @depthwise_and_pool
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<8x3x3xf32>) outs(%{{.+}} : tensor<3x3x8xf32>) permutation = [1, 2, 0]
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {{.*}} -> tensor<1x8x8x8xf32>
// CHECK:         linalg.pooling_nhwc_max {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x8x8x8xf32>, tensor<2x2xf32>) {{.*}} -> tensor<1x4x4x8xf32>
// CHECK:         linalg.pooling_nhwc_sum {{.*}} -> tensor<1x4x4x8xf32>
// CHECK-NOT:     nchw
func.func @depthwise_and_pool(%x: tensor<1x8x10x10xf32>, %w: tensor<8x3x3xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %pe = tensor.empty() : tensor<1x8x4x4xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %m = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%d, %window : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%d, %window : tensor<1x8x8x8xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %m, %s : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A grouped convolution becomes a generic over an NHWGC image and a
// KH x KW x G x C x F filter, its loops (n, oh, ow, g, f, kh, kw, c); the
// body is the named op's. Strides and dilations go into the image's map.
// CHECK-DAG:   #[[IMAGE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + d5 * 3, d2 * 2 + d6 * 3, d3, d7)>
// CHECK-DAG:   #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d3, d7, d4)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped_ngchw
// CHECK-SAME:    (%[[X:.+]]: tensor<1x2x4x13x13xf32>, %[[W:.+]]: tensor<2x3x4x3x3xf32>)
// CHECK:         %[[XT:.+]] = linalg.transpose ins(%[[X]] : tensor<1x2x4x13x13xf32>) outs(%{{.+}} : tensor<1x13x13x2x4xf32>) permutation = [0, 3, 4, 1, 2]
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x4x4x2x3xf32>)
// CHECK:         %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<2x3x4x3x3xf32>) outs(%{{.+}} : tensor<3x3x2x4x3xf32>) permutation = [3, 4, 0, 2, 1]
// CHECK:         %[[C:.+]] = linalg.generic {indexing_maps = [#[[IMAGE]], #[[FILTER]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME:        ins(%[[XT]], %[[WT]] : tensor<1x13x13x2x4xf32>, tensor<3x3x2x4x3xf32>) outs(%[[F]] : tensor<1x4x4x2x3xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = linalg.transpose ins(%[[C]] : tensor<1x4x4x2x3xf32>) outs(%{{.+}} : tensor<1x2x3x4x4xf32>) permutation = [0, 3, 4, 1, 2]
// CHECK:         return %[[R]]
func.func @grouped_ngchw(%x: tensor<1x2x4x13x13xf32>, %w: tensor<2x3x4x3x3xf32>) -> tensor<1x2x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  %r = linalg.conv_2d_ngchw_gfchw {dilations = dense<3> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x4x13x13xf32>, tensor<2x3x4x3x3xf32>) outs(%f : tensor<1x2x3x4x4xf32>) -> tensor<1x2x3x4x4xf32>
  return %r : tensor<1x2x3x4x4xf32>
}

// -----

// A channels-last grouped convolution keeps its image and result; only
// its filter (GFHWC) is transposed. Strides and dilations the op leaves
// out are 1.
// CHECK-DAG:   #[[IMAGE:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 + d5, d2 + d6, d3, d7)>
// CHECK-LABEL: func.func @grouped_nhwgc
// CHECK-SAME:    (%[[X:.+]]: tensor<1x6x6x2x4xf32>, %[[W:.+]]: tensor<2x3x3x3x4xf32>, %[[I:.+]]: tensor<1x4x4x2x3xf32>)
// CHECK:         %[[WT:.+]] = linalg.transpose ins(%[[W]] : tensor<2x3x3x3x4xf32>) outs(%{{.+}} : tensor<3x3x2x4x3xf32>) permutation = [2, 3, 0, 4, 1]
// CHECK:         %[[C:.+]] = linalg.generic {indexing_maps = [#[[IMAGE]], {{.*}} ins(%[[X]], %[[WT]] : tensor<1x6x6x2x4xf32>, tensor<3x3x2x4x3xf32>) outs(%[[I]] : tensor<1x4x4x2x3xf32>)
// CHECK:         return %[[C]]
func.func @grouped_nhwgc(%x: tensor<1x6x6x2x4xf32>, %w: tensor<2x3x3x3x4xf32>, %i: tensor<1x4x4x2x3xf32>) -> tensor<1x4x4x2x3xf32> {
  %r = linalg.conv_2d_nhwgc_gfhwc
      ins(%x, %w : tensor<1x6x6x2x4xf32>, tensor<2x3x3x3x4xf32>) outs(%i : tensor<1x4x4x2x3xf32>) -> tensor<1x4x4x2x3xf32>
  return %r : tensor<1x4x4x2x3xf32>
}

// -----

// FGCHW: a constant filter is transposed here (w[f][g] becomes w[g][f]),
// and the body converts as the named op's does (i8 summed in i32).
// CHECK-LABEL: func.func @grouped_fgchw_constant
// CHECK:         %[[WT:.+]] = arith.constant dense<{{\[\[\[\[\[}}1, 3]], {{\[\[}}2, 4]]]]]> : tensor<1x1x2x1x2xi8>
// CHECK:         linalg.generic {{.*}} ins(%{{.+}}, %[[WT]] : tensor<1x3x3x2x1xi8>, tensor<1x1x2x1x2xi8>)
// CHECK:           arith.extsi
// CHECK:           arith.extsi
// CHECK:           arith.muli
// CHECK:           arith.addi
func.func @grouped_fgchw_constant(%x: tensor<1x2x1x3x3xi8>, %i: tensor<1x2x2x3x3xi32>) -> tensor<1x2x2x3x3xi32> {
  %w = arith.constant dense<[[[[[1]]], [[[2]]]], [[[[3]]], [[[4]]]]]> : tensor<2x2x1x1x1xi8>
  %r = linalg.conv_2d_ngchw_fgchw
      ins(%x, %w : tensor<1x2x1x3x3xi8>, tensor<2x2x1x1x1xi8>) outs(%i : tensor<1x2x2x3x3xi32>) -> tensor<1x2x2x3x3xi32>
  return %r : tensor<1x2x2x3x3xi32>
}

// -----

// A filter held in a dense_resource blob (as the ONNX importer keeps
// weights over 1 KiB) is transposed at compile time too.
// CHECK-LABEL: func.func @resource_filter
// CHECK:         %[[WT:.+]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00]], {{\[\[}}2.000000e+00, 4.000000e+00]]]]> : tensor<1x2x1x2xf32>
// CHECK-NOT:     linalg.transpose ins(%{{.+}} : tensor<2x1x1x2xf32>)
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %[[WT]] :
func.func @resource_filter(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x3xf32> {
  %w = arith.constant dense_resource<filter> : tensor<2x1x1x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x1x2xf32>) outs(%f : tensor<1x2x4x3xf32>) -> tensor<1x2x4x3xf32>
  return %r : tensor<1x2x4x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      filter: "0x040000000000803F000000400000404000008040"
    }
  }
#-}
