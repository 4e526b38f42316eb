// RUN: kiln-opt %s --split-input-file --kiln-propagate-transposes | FileCheck %s

// An activation of a channels-last convolution's result, read by a global
// pooling and by a scaling (a squeeze-and-excitation block): the
// transpose back to NCHW sinks below the activation and then below the
// scaling, both computed channels-last (the per-channel scale read through
// the permuted loops); the pooling reads a transpose, for fusion to merge.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[SCALE:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, 0, 0)>
// CHECK-LABEL: func.func @two_users
// CHECK-SAME:    (%[[C:.+]]: tensor<1x2x3x8xf32>, %[[S:.+]]: tensor<1x8x1x1xf32>)
// CHECK:         %[[A:.+]] = linalg.generic
// CHECK-SAME:      ins(%[[C]] : tensor<1x2x3x8xf32>) outs(%{{.+}} : tensor<1x2x3x8xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[A]] : tensor<1x2x3x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         %[[P:.+]] = linalg.generic {{.*}} ins(%[[T]] : tensor<1x8x2x3xf32>)
// CHECK:           arith.addf
// CHECK:         %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[SCALE]], #[[ID]]]
// CHECK-SAME:      ins(%[[A]], %[[S]] : tensor<1x2x3x8xf32>, tensor<1x8x1x1xf32>) outs(%{{.+}} : tensor<1x2x3x8xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[R:.+]] = linalg.transpose ins(%[[M]] : tensor<1x2x3x8xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         return %[[P]], %[[R]]
func.func @two_users(%c: tensor<1x2x3x8xf32>, %s: tensor<1x8x1x1xf32>) -> (tensor<1x8xf32>, tensor<1x8x2x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x2x3xf32>
  %t = linalg.transpose ins(%c : tensor<1x2x3x8xf32>) outs(%e : tensor<1x8x2x3xf32>) permutation = [0, 3, 1, 2]
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x8x2x3xf32>) outs(%e : tensor<1x8x2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x2x3xf32>
  %pe = tensor.empty() : tensor<1x8xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x8xf32>) -> tensor<1x8xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a : tensor<1x8x2x3xf32>) outs(%pf : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %sum = arith.addf %x, %o : f32
    linalg.yield %sum : f32
  } -> tensor<1x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, 0, 0)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %s : tensor<1x8x2x3xf32>, tensor<1x8x1x1xf32>) outs(%e : tensor<1x8x2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    linalg.yield %m : f32
  } -> tensor<1x8x2x3xf32>
  return %p, %r : tensor<1x8xf32>, tensor<1x8x2x3xf32>
}

// -----

// The sunk transpose meets the transpose to NHWC of the next convolution
// and both go; a per-channel bias is read through the permuted loops.
// Dynamic sizes are carried over.
// CHECK-LABEL: func.func @cancel
// CHECK-SAME:    (%[[C:.+]]: tensor<?x?x?x8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[BIAS:.+]], #{{.+}}]
// CHECK-SAME:      ins(%[[C]], %[[B]] : tensor<?x?x?x8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<?x?x?x8xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[R]]
func.func @cancel(%c: tensor<?x?x?x8xf32>, %b: tensor<8xf32>) -> tensor<?x?x?x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %c, %c0 : tensor<?x?x?x8xf32>
  %h = tensor.dim %c, %c1 : tensor<?x?x?x8xf32>
  %w = tensor.dim %c, %c2 : tensor<?x?x?x8xf32>
  %e = tensor.empty(%n, %h, %w) : tensor<?x8x?x?xf32>
  %t = linalg.transpose ins(%c : tensor<?x?x?x8xf32>) outs(%e : tensor<?x8x?x?xf32>) permutation = [0, 3, 1, 2]
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t, %b : tensor<?x8x?x?xf32>, tensor<8xf32>) outs(%e : tensor<?x8x?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x8x?x?xf32>
  %e2 = tensor.empty(%n, %h, %w) : tensor<?x?x?x8xf32>
  %back = linalg.transpose ins(%a : tensor<?x8x?x?xf32>) outs(%e2 : tensor<?x?x?x8xf32>) permutation = [0, 2, 3, 1]
  return %back : tensor<?x?x?x8xf32>
}

// -----

// A pooled N x C expanded to N x C x 1 x 1 and transposed to N x 1 x 1 x C
// is one expand_shape.
// CHECK-LABEL: func.func @unit_dims
// CHECK-SAME:    (%[[P:.+]]: tensor<1x8xf32>)
// CHECK:         %[[R:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2, 3]] output_shape [1, 1, 1, 8] : tensor<1x8xf32> into tensor<1x1x1x8xf32>
// CHECK-NEXT:    return %[[R]]
func.func @unit_dims(%p: tensor<1x8xf32>) -> tensor<1x1x1x8xf32> {
  %x = tensor.expand_shape %p [[0], [1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<1x8xf32> into tensor<1x8x1x1xf32>
  %e = tensor.empty() : tensor<1x1x1x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x1x1xf32>) outs(%e : tensor<1x1x1x8xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<1x1x1x8xf32>
}

// -----

// An elementwise op that also reads a full tensor in its own layout keeps
// its layout: computed channels-last it would read that tensor across the
// channels instead.
// CHECK-LABEL: func.func @mixed_layouts
// CHECK:         %[[T:.+]] = linalg.transpose
// CHECK:         linalg.generic {{.*}} ins(%[[T]], %{{.+}} : tensor<1x8x2x3xf32>, tensor<1x8x2x3xf32>)
func.func @mixed_layouts(%c: tensor<1x2x3x8xf32>, %r: tensor<1x8x2x3xf32>) -> tensor<1x8x2x3xf32> {
  %e = tensor.empty() : tensor<1x8x2x3xf32>
  %t = linalg.transpose ins(%c : tensor<1x2x3x8xf32>) outs(%e : tensor<1x8x2x3xf32>) permutation = [0, 3, 1, 2]
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t, %r : tensor<1x8x2x3xf32>, tensor<1x8x2x3xf32>) outs(%e : tensor<1x8x2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x8x2x3xf32>
  return %a : tensor<1x8x2x3xf32>
}

// -----

// A transpose read by two poolings: each gets its own copy, which fusion
// merges into it (a copy only indexes).
// CHECK-LABEL: func.func @copies
// CHECK-SAME:    (%[[C:.+]]: tensor<1x2x3x8xf32>
// CHECK:         %[[T1:.+]] = linalg.transpose ins(%[[C]]
// CHECK:         %[[T2:.+]] = linalg.transpose ins(%[[C]]
// CHECK:         linalg.generic {{.*}} ins(%[[T1]] : tensor<1x8x2x3xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[T2]] : tensor<1x8x2x3xf32>)
// CHECK:           arith.maximumf
func.func @copies(%c: tensor<1x2x3x8xf32>, %init: tensor<1x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %e = tensor.empty() : tensor<1x8x2x3xf32>
  %t = linalg.transpose ins(%c : tensor<1x2x3x8xf32>) outs(%e : tensor<1x8x2x3xf32>) permutation = [0, 3, 1, 2]
  %sum = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%t : tensor<1x8x2x3xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%t : tensor<1x8x2x3xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %o : f32
    linalg.yield %m : f32
  } -> tensor<1x8xf32>
  return %sum, %max : tensor<1x8xf32>, tensor<1x8xf32>
}

// -----

// Not sunk: an op whose body reads its loop indices (they would name other
// loops once permuted).
// CHECK-LABEL: func.func @index_semantics
// CHECK:         %[[T:.+]] = linalg.transpose
// CHECK:         linalg.generic {{.*}} ins(%[[T]] : tensor<1x8x2x3xf32>)
// CHECK:           linalg.index 1
func.func @index_semantics(%c: tensor<1x2x3x8xf32>) -> tensor<1x8x2x3xf32> {
  %e = tensor.empty() : tensor<1x8x2x3xf32>
  %t = linalg.transpose ins(%c : tensor<1x2x3x8xf32>) outs(%e : tensor<1x8x2x3xf32>) permutation = [0, 3, 1, 2]
  %a = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<1x8x2x3xf32>) outs(%e : tensor<1x8x2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %s = arith.addf %x, %f : f32
    linalg.yield %s : f32
  } -> tensor<1x8x2x3xf32>
  return %a : tensor<1x8x2x3xf32>
}

// -----

// A transpose read by a convolution, a pooling and a reshape (to a
// matmul): only the pooling (a generic, which fusion merges a transpose
// into) gets a copy; the convolution and the reshape keep reading the one
// transpose.
// CHECK-LABEL: func.func @copies_for_generics_only
// CHECK:         %[[COPY:.+]] = linalg.transpose
// CHECK:         %[[T:.+]] = linalg.transpose
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.conv_2d_nchw_fchw {{.*}} ins(%[[T]],
// CHECK:         linalg.generic {{.*}} ins(%[[COPY]] : tensor<1x8x4x4xf32>)
// CHECK:         tensor.collapse_shape %[[T]]
func.func @copies_for_generics_only(%c: tensor<1x4x4x8xf32>, %w: tensor<8x8x1x1xf32>, %init: tensor<1x8xf32>, %b: tensor<16x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %t = linalg.transpose ins(%c : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%t, %w : tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%t : tensor<1x8x4x4xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  %flat = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<1x8x4x4xf32> into tensor<8x16xf32>
  %me = tensor.empty() : tensor<8x8xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<8x8xf32>) -> tensor<8x8xf32>
  %mm = linalg.matmul ins(%flat, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%mf : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %conv, %p, %mm : tensor<1x8x4x4xf32>, tensor<1x8xf32>, tensor<8x8xf32>
}
