// RUN: kiln-opt %s --split-input-file --kiln-pack-contraction-weights="panel-bytes=8 min-weight-bytes=0" | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-pack-contraction-weights="cpu=haswell min-weight-bytes=0" | FileCheck %s --check-prefix=AVX2
// RUN: kiln-opt %s --split-input-file --kiln-pack-contraction-weights="cpu=skylake-avx512 min-weight-bytes=0" | FileCheck %s --check-prefix=AVX512
// RUN: kiln-opt %s --split-input-file --kiln-pack-contraction-weights="cpu=no-such-cpu min-weight-bytes=0" | FileCheck %s --check-prefix=KEPT
// RUN: kiln-opt %s --split-input-file --kiln-pack-contraction-weights="cpu=haswell" | FileCheck %s --check-prefix=KEPT
// RUN: kiln-opt %s --split-input-file --kiln-pack-contraction-weights="panel-bytes=-1 min-weight-bytes=0" | FileCheck %s --check-prefix=KEPT

// Panels of 8 bytes (two f32 columns): the 3x4 weight holding 0..11 (K x
// N) becomes 2 x 3 x 2, panel by panel, each row of K the panel's two
// columns; the matmul a generic over (m, no, ni, k), its fill made again
// in three dims, its result collapsed back. The target's register tile
// decides the panel when panel-bytes is 0: 64 bytes (16 columns) on AVX2,
// 128 bytes (32) on AVX-512. No panel at all for a CPU that is not one or
// a negative width, and below min-weight-bytes (64 KiB by default) the
// constant stays.
// CHECK-DAG:   #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-DAG:   #[[W:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>
// CHECK-DAG:   #[[C:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @rows_of_columns
// CHECK-SAME:    (%[[X:.+]]: tensor<5x3xf32>)
// CHECK:         %[[P:.+]] = arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 1.000000e+00], [4.000000e+00, 5.000000e+00], [8.000000e+00, 9.000000e+00]], {{\[}}[2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00], [1.000000e+01, 1.100000e+01]]]> : tensor<2x3x2xf32>
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<5x2x2xf32>
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[E]] : tensor<5x2x2xf32>)
// CHECK:         %[[G:.+]] = linalg.generic {indexing_maps = [#[[A]], #[[W]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[X]], %[[P]] : tensor<5x3xf32>, tensor<2x3x2xf32>) outs(%[[F]] : tensor<5x2x2xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2]] : tensor<5x2x2xf32> into tensor<5x4xf32>
// CHECK:         return %[[R]]
func.func @rows_of_columns(%x: tensor<5x3xf32>) -> tensor<5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %e = tensor.empty() : tensor<5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<5x3xf32>, tensor<3x4xf32>) outs(%f : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

// 64 columns: four panels of 16 on AVX2, two of 32 on AVX-512.
// AVX2-LABEL:   func.func @panel_width
// AVX2:           arith.constant dense<{{.+}}> : tensor<4x1x16xf32>
// AVX2:           linalg.generic {{.+}} outs(%{{.+}} : tensor<2x4x16xf32>)
// AVX512-LABEL: func.func @panel_width
// AVX512:         arith.constant dense<{{.+}}> : tensor<2x1x32xf32>
// AVX512:         linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x32xf32>)
// KEPT-LABEL:   func.func @panel_width
// KEPT:           linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x1xf32>, tensor<1x64xf32>)
func.func @panel_width(%x: tensor<2x1xf32>) -> tensor<2x64xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0]]> : tensor<1x64xf32>
  %e = tensor.empty() : tensor<2x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<2x1xf32>, tensor<1x64xf32>) outs(%f : tensor<2x64xf32>) -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}

// -----

// A weight stored N x K (a linear layer's): the panel holds two rows of
// it side by side. Five columns: the last panel is padded with a zero
// column, which a slice drops from the result.
// CHECK-LABEL: func.func @transposed_padded
// CHECK:         %[[P:.+]] = arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]], {{\[}}[4.000000e+00, 6.000000e+00], [5.000000e+00, 7.000000e+00]], {{\[}}[8.000000e+00, 0.000000e+00], [9.000000e+00, 0.000000e+00]]]> : tensor<3x2x2xf32>
// CHECK:         %[[G:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<7x3x2xf32>)
// CHECK:         %[[R:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0], [1, 2]] : tensor<7x3x2xf32> into tensor<7x6xf32>
// CHECK:         %[[S:.+]] = tensor.extract_slice %[[R]][0, 0] [7, 5] [1, 1] : tensor<7x6xf32> to tensor<7x5xf32>
// CHECK:         return %[[S]]
func.func @transposed_padded(%x: tensor<7x2xf32>) -> tensor<7x5xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0]]> : tensor<5x2xf32>
  %e = tensor.empty() : tensor<7x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<7x2xf32>, tensor<5x2xf32>) outs(%f : tensor<7x5xf32>) -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}

// -----

// One panel of an N x K weight: transposed into it.
// CHECK-LABEL: func.func @transposed_one_panel
// CHECK:         arith.constant dense<{{\[}}{{\[}}[0.000000e+00, 3.000000e+00], [1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00]]]> : tensor<1x3x2xf32>
// CHECK:         linalg.generic {{.+}} outs(%{{.+}} : tensor<4x1x2xf32>)
func.func @transposed_one_panel(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<4x3xf32>, tensor<2x3xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// A generic contraction with a batch of one and a dynamic row count (ONNX's
// MatMul on 3-D activations); the weight is a dense_resource blob, as
// importers keep weights: its 2x4 f32 values are 1..8.
// CHECK-LABEL: func.func @batched_resource
// CHECK:         %[[P:.+]] = arith.constant dense<{{\[}}{{\[}}[1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00]], {{\[}}[3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK:         %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x2x2xf32>
// CHECK:         %[[G:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      outs(%{{.+}} : tensor<1x?x2x2xf32>)
// CHECK:         tensor.collapse_shape %[[G]] {{\[}}[0], [1], [2, 3]] : tensor<1x?x2x2xf32> into tensor<1x?x4xf32>
func.func @batched_resource(%x: tensor<1x?x2xf32>) -> tensor<1x?x4xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c1 : tensor<1x?x2xf32>
  %w = arith.constant dense_resource<w> : tensor<2x4xf32>
  %e = tensor.empty(%rows) : tensor<1x?x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x?x2xf32>, tensor<2x4xf32>) outs(%f : tensor<1x?x4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %out, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x?x4xf32>
  return %r : tensor<1x?x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400000A0400000C0400000E04000000041"
    }
  }
#-}

// -----

// An accumulator that is not a fill: expanded to the panels where they are
// whole.
// CHECK-LABEL: func.func @accumulate
// CHECK-SAME:    (%[[X:.+]]: tensor<5x3xf32>, %[[ACC:.+]]: tensor<5x4xf32>)
// CHECK:         %[[A:.+]] = tensor.expand_shape %[[ACC]] {{\[}}[0], [1, 2]] output_shape [5, 2, 2]
// CHECK:         linalg.generic {{.+}} outs(%[[A]] : tensor<5x2x2xf32>)
func.func @accumulate(%x: tensor<5x3xf32>, %acc: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %r = linalg.matmul ins(%x, %w : tensor<5x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// -----

// Left as they are: a weight that is an argument (its layout is the
// caller's), a splat, one panel of a K x N constant (two columns: its own
// layout already), a partial panel
// into an accumulator that is not a fill (three columns), operands of
// different types, the constant on the rows' side (indexed by m and k),
// and a batched weight (three dims).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-6: linalg.matmul
// CHECK:         linalg.batch_matmul
// CHECK-NOT:     linalg.generic
func.func @kept(%x: tensor<5x3xf32>, %w: tensor<3x4xf32>, %acc: tensor<5x3xf32>, %h: tensor<5x3xf16>, %y: tensor<3x4xf32>, %bx: tensor<2x5x3xf32>)
    -> (tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<2x5x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %splat = arith.constant dense<1.0> : tensor<3x4xf32>
  %two = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %three = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]> : tensor<3x3xf32>
  %four = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %rows = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0], [12.0, 13.0, 14.0]]> : tensor<5x3xf32>
  %batched = arith.constant dense<1.5> : tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
  %e2 = tensor.empty() : tensor<5x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<5x2xf32>) -> tensor<5x2xf32>
  %eb = tensor.empty() : tensor<2x5x4xf32>
  %fb = linalg.fill ins(%zero : f32) outs(%eb : tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  %0 = linalg.matmul ins(%x, %w : tensor<5x3xf32>, tensor<3x4xf32>) outs(%f : tensor<5x4xf32>) -> tensor<5x4xf32>
  %1 = linalg.matmul ins(%x, %splat : tensor<5x3xf32>, tensor<3x4xf32>) outs(%f : tensor<5x4xf32>) -> tensor<5x4xf32>
  %2 = linalg.matmul ins(%x, %two : tensor<5x3xf32>, tensor<3x2xf32>) outs(%f2 : tensor<5x2xf32>) -> tensor<5x2xf32>
  %3 = linalg.matmul ins(%x, %three : tensor<5x3xf32>, tensor<3x3xf32>) outs(%acc : tensor<5x3xf32>) -> tensor<5x3xf32>
  %4 = linalg.matmul ins(%h, %four : tensor<5x3xf16>, tensor<3x4xf32>) outs(%f : tensor<5x4xf32>) -> tensor<5x4xf32>
  %5 = linalg.matmul ins(%rows, %y : tensor<5x3xf32>, tensor<3x4xf32>) outs(%f : tensor<5x4xf32>) -> tensor<5x4xf32>
  %6 = linalg.batch_matmul ins(%bx, %batched : tensor<2x5x3xf32>, tensor<2x3x4xf32>) outs(%fb : tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x2xf32>, tensor<5x3xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<2x5x4xf32>
}
