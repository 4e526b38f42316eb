// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-widen-narrow-accumulators))' | FileCheck %s

// A sum of f16 from a fill: the fill is made again in f32, the reduce
// becomes a generic that extends each term and adds in f32 (fastmath kept),
// and the sum is truncated once.
// CHECK-LABEL: func.func @column_sum
// CHECK-SAME: (%[[X:.+]]: tensor<4096x64xf16>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<64xf32>
// CHECK: %[[ZERO32:.+]] = arith.extf %[[ZERO]] : f16 to f32
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ZERO32]] : f32) outs(%[[EMPTY]] : tensor<64xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel"]
// CHECK-SAME: ins(%[[X]] : tensor<4096x64xf16>) outs(%[[FILL]] : tensor<64xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f16, %[[ACC:.+]]: f32):
// CHECK:   %[[WIDE:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK:   %[[ADD:.+]] = arith.addf %[[WIDE]], %[[ACC]] fastmath<reassoc> : f32
// CHECK:   linalg.yield %[[ADD]] : f32
// CHECK: %[[EMPTY16:.+]] = tensor.empty() : tensor<64xf16>
// CHECK: %[[NARROW:.+]] = linalg.generic
// CHECK-SAME: iterator_types = ["parallel"]
// CHECK-SAME: ins(%[[SUM]] : tensor<64xf32>) outs(%[[EMPTY16]] : tensor<64xf16>)
// CHECK:   arith.truncf %{{.+}} : f32 to f16
// CHECK: return %[[NARROW]]
func.func @column_sum(%x: tensor<4096x64xf16>) -> tensor<64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<64xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %r = linalg.reduce ins(%x : tensor<4096x64xf16>) outs(%f : tensor<64xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %s = arith.addf %in, %acc fastmath<reassoc> : f16
      linalg.yield %s : f16
    }
  return %r : tensor<64xf16>
}

// -----

// A named matmul of bf16 into an init that is no fill: the init is
// extended elementwise (dynamic sizes kept) and the matmul built again on
// it, which makes its body extend the operands.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: tensor<?x64xbf16>, %[[B:.+]]: tensor<64x32xbf16>, %[[C:.+]]: tensor<?x32xbf16>)
// CHECK: %[[ROWS:.+]] = tensor.dim %[[C]], %{{.+}} : tensor<?x32xbf16>
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[ROWS]]) : tensor<?x32xf32>
// CHECK: %[[C32:.+]] = linalg.generic {{.+}} ins(%[[C]] : tensor<?x32xbf16>) outs(%[[EMPTY]] : tensor<?x32xf32>)
// CHECK:   arith.extf %{{.+}} : bf16 to f32
// CHECK: %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x64xbf16>, tensor<64x32xbf16>) outs(%[[C32]] : tensor<?x32xf32>)
// CHECK: %[[NARROW:.+]] = linalg.generic {{.+}} ins(%[[MM]] : tensor<?x32xf32>) outs(%{{.+}} : tensor<?x32xbf16>)
// CHECK:   arith.truncf %{{.+}} : f32 to bf16
// CHECK: return %[[NARROW]]
func.func @matmul(%a: tensor<?x64xbf16>, %b: tensor<64x32xbf16>, %c: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  %r = linalg.matmul ins(%a, %b : tensor<?x64xbf16>, tensor<64x32xbf16>) outs(%c : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %r : tensor<?x32xbf16>
}

// -----

// Maximum and minimum are exact, and f32 sums are wide enough: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: arith.extf
// CHECK-NOT: arith.truncf
// CHECK: linalg.reduce
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f16
// CHECK: linalg.reduce
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
func.func @left_alone(%x: tensor<64x8xf16>, %f: tensor<8xf16>, %y: tensor<64x8xf32>, %g: tensor<8xf32>) -> (tensor<8xf16>, tensor<8xf32>) {
  %m = linalg.reduce ins(%x : tensor<64x8xf16>) outs(%f : tensor<8xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %s = arith.maximumf %in, %acc : f16
      linalg.yield %s : f16
    }
  %s = linalg.reduce ins(%y : tensor<64x8xf32>) outs(%g : tensor<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  return %m, %s : tensor<8xf16>, tensor<8xf32>
}

// -----

// Two results: the product of f8 terms is widened, the maximum beside it is
// not. The terms are computed as before (a square in f8).
// CHECK-LABEL: func.func @two_results
// CHECK: %[[R:.+]]:2 = linalg.generic
// CHECK-SAME: outs(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf8E4M3FN>)
// CHECK: ^bb0(%[[IN:.+]]: f8E4M3FN, %[[PROD:.+]]: f32, %[[MAX:.+]]: f8E4M3FN):
// CHECK:   %[[SQ:.+]] = arith.mulf %[[IN]], %[[IN]] : f8E4M3FN
// CHECK:   %[[WIDE:.+]] = arith.extf %[[SQ]] : f8E4M3FN to f32
// CHECK:   %[[NEW:.+]] = arith.mulf %[[PROD]], %[[WIDE]] : f32
// CHECK:   %[[M:.+]] = arith.maximumf %[[MAX]], %[[IN]] : f8E4M3FN
// CHECK:   linalg.yield %[[NEW]], %[[M]] : f32, f8E4M3FN
// CHECK: linalg.generic {{.+}} ins(%[[R]]#0 : tensor<4xf32>) outs(%{{.+}} : tensor<4xf8E4M3FN>)
func.func @two_results(%x: tensor<4x16xf8E4M3FN>, %p: tensor<4xf8E4M3FN>, %q: tensor<4xf8E4M3FN>) -> (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf8E4M3FN>) outs(%p, %q : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) {
  ^bb0(%in: f8E4M3FN, %prod: f8E4M3FN, %max: f8E4M3FN):
    %sq = arith.mulf %in, %in : f8E4M3FN
    %np = arith.mulf %prod, %sq : f8E4M3FN
    %nm = arith.maximumf %max, %in : f8E4M3FN
    linalg.yield %np, %nm : f8E4M3FN, f8E4M3FN
  } -> (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>)
  return %r#0, %r#1 : tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>
}

// -----

// An accumulator read for more than its sum is no plain sum (a running
// maximum of the partial sums here): left alone.
// CHECK-LABEL: func.func @not_a_plain_sum
// CHECK-NOT: f32
// CHECK: return
func.func @not_a_plain_sum(%x: tensor<4x16xf16>, %p: tensor<4xf16>, %q: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x16xf16>) outs(%p, %q : tensor<4xf16>, tensor<4xf16>) {
  ^bb0(%in: f16, %sum: f16, %max: f16):
    %ns = arith.addf %sum, %in : f16
    %nm = arith.maximumf %max, %sum : f16
    linalg.yield %ns, %nm : f16, f16
  } -> (tensor<4xf16>, tensor<4xf16>)
  return %r#0, %r#1 : tensor<4xf16>, tensor<4xf16>
}
