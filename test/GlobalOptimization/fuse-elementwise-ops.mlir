// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-fuse-elementwise-ops))' | FileCheck %s

// Named elementwise ops become one generic; the fill stays named and the
// matmul is left alone.
// CHECK-LABEL: func.func @bias_relu
// CHECK:         %[[FILL:.+]] = linalg.fill
// CHECK:         %[[MM:.+]] = linalg.matmul {{.*}} outs(%[[FILL]]
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK-SAME:        ins(%[[MM]], %{{.+}} : tensor<4x8xf32>, tensor<8xf32>)
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:           linalg.yield
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
func.func @bias_relu(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bb = linalg.broadcast ins(%bias : tensor<8xf32>) outs(%e : tensor<4x8xf32>) dimensions = [0]
  %add = linalg.add ins(%mm, %bb : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %relu = linalg.max ins(%add, %zeros : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %relu : tensor<4x8xf32>
}

// -----

// A producer with two users is not duplicated into both.
// CHECK-LABEL: func.func @shared_producer
// CHECK:         %[[EXP:.+]] = linalg.generic
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[EXP]]
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[EXP]]
// CHECK:           arith.mulf
func.func @shared_producer(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %exp = linalg.exp ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %add = linalg.add ins(%exp, %a : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %mul = linalg.mul ins(%exp, %a : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %add, %mul : tensor<16xf32>, tensor<16xf32>
}

// -----

// Elementwise ops on constants fold into constants.
// CHECK-LABEL: func.func @constant_transpose
// CHECK:         %[[C:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT:     linalg.
// CHECK:         return %[[C]]
func.func @constant_transpose() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}

// -----

// Folding stops at the element limit.
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-fuse-elementwise-ops{max-constant-elements=2}))' | FileCheck %s --check-prefix=LIMIT
// LIMIT-LABEL: func.func @constant_too_large
// LIMIT:         %[[C:.+]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]
// LIMIT:         linalg.generic {{.*}} ins(%[[C]]
func.func @constant_too_large() -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%c : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}

// -----

// Reshapes between elementwise ops move out of the way of fusion.
// CHECK-LABEL: func.func @reshape_between
// CHECK:         linalg.generic
// CHECK:           math.exp
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
func.func @reshape_between(%a: tensor<4x8xf32>, %b: tensor<32xf32>) -> tensor<32xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.exp ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %flat = tensor.collapse_shape %exp [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %e1 = tensor.empty() : tensor<32xf32>
  %add = linalg.add ins(%flat, %b : tensor<32xf32>, tensor<32xf32>) outs(%e1 : tensor<32xf32>) -> tensor<32xf32>
  return %add : tensor<32xf32>
}

// -----

// A convolution that is a generic (a grouped one) takes no elementwise
// producer: its filter's transpose and the activation before it stay
// dispatches of their own, read once rather than for every window tap.
// CHECK-LABEL: func.func @grouped_conv_producers
// CHECK:         %[[WT:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<2x3x3x3x4xf32>) outs(%{{.+}} : tensor<3x3x2x4x3xf32>)
// CHECK:         %[[RELU:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<1x6x6x2x4xf32>) outs(%{{.+}} : tensor<1x6x6x2x4xf32>)
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {{.*}} ins(%[[RELU]], %[[WT]] : tensor<1x6x6x2x4xf32>, tensor<3x3x2x4x3xf32>)
func.func @grouped_conv_producers(%x: tensor<1x6x6x2x4xf32>, %w: tensor<2x3x3x3x4xf32>, %i: tensor<1x4x4x2x3xf32>) -> tensor<1x4x4x2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %we = tensor.empty() : tensor<3x3x2x4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<2x3x3x3x4xf32>) outs(%we : tensor<3x3x2x4x3xf32>) permutation = [2, 3, 0, 4, 1]
  %xe = tensor.empty() : tensor<1x6x6x2x4xf32>
  %zeros = linalg.fill ins(%zero : f32) outs(%xe : tensor<1x6x6x2x4xf32>) -> tensor<1x6x6x2x4xf32>
  %relu = linalg.max ins(%x, %zeros : tensor<1x6x6x2x4xf32>, tensor<1x6x6x2x4xf32>) outs(%xe : tensor<1x6x6x2x4xf32>) -> tensor<1x6x6x2x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh + kh, ow + kw, g, c)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (kh, kw, g, c, f)>, affine_map<(n, oh, ow, g, f, kh, kw, c) -> (n, oh, ow, g, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%relu, %wt : tensor<1x6x6x2x4xf32>, tensor<3x3x2x4x3xf32>) outs(%i : tensor<1x4x4x2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x4x4x2x3xf32>
  return %r : tensor<1x4x4x2x3xf32>
}

// -----

// An activation feeding a matmul stays its own op: fused, erf would run
// again for every output column. (Written as a matmul on an expand_shape
// of the activation, as reshape propagation leaves an ONNX MatMul.)
// CHECK-LABEL: func.func @activation_into_matmul
// CHECK:         %[[ACT:.+]] = linalg.generic
// CHECK:           math.erf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%[[ACT]],
// CHECK-NOT:       math.erf
func.func @activation_into_matmul(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x32xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.erf %a : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%act, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%fill : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %mm : tensor<16x8xf32>
}

// -----

// A widening (f16 weights) still fuses into the matmul that reads it.
// CHECK-LABEL: func.func @widening_into_matmul
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           arith.extf
// CHECK:           arith.mulf
// CHECK-NOT:     linalg.generic
func.func @widening_into_matmul(%x: tensor<16x32xf32>, %w: tensor<32x8xf16>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<32x8xf32>
  %wide = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<32x8xf16>) outs(%e : tensor<32x8xf32>) {
  ^bb0(%a: f16, %o: f32):
    %r = arith.extf %a : f16 to f32
    linalg.yield %r : f32
  } -> tensor<32x8xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wide : tensor<16x32xf32>, tensor<32x8xf32>) outs(%fill : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %mm : tensor<16x8xf32>
}
