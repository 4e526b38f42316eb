// RUN: kiln-opt %s --split-input-file --kiln-cpu-lower-min-max | FileCheck %s

// Each op becomes its LLVM intrinsic, with its own fast-math flags and nsz.
// CHECK-LABEL: func.func @vectors
//  CHECK-SAME: (%[[A:.*]]: vector<16xf32>, %[[B:.*]]: vector<16xf32>)
//       CHECK:   %[[MAX:.*]] = llvm.intr.maximum(%[[A]], %[[B]]) {fastmathFlags = #llvm.fastmath<nsz>} : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
//       CHECK:   %[[MIN:.*]] = llvm.intr.minimum(%[[MAX]], %[[B]]) {fastmathFlags = #llvm.fastmath<nsz>}
//       CHECK:   %[[MAXNUM:.*]] = llvm.intr.maxnum(%[[MIN]], %[[A]]) {fastmathFlags = #llvm.fastmath<nnan, nsz>}
//       CHECK:   %[[MINNUM:.*]] = llvm.intr.minnum(%[[MAXNUM]], %[[B]]) {fastmathFlags = #llvm.fastmath<fast>}
//       CHECK:   return %[[MINNUM]]
func.func @vectors(%a: vector<16xf32>, %b: vector<16xf32>) -> vector<16xf32> {
  %0 = arith.maximumf %a, %b : vector<16xf32>
  %1 = arith.minimumf %0, %b : vector<16xf32>
  %2 = arith.maxnumf %1, %a fastmath<nnan> : vector<16xf32>
  %3 = arith.minnumf %2, %b fastmath<fast> : vector<16xf32>
  return %3 : vector<16xf32>
}

// -----

// Scalars of every float type LLVM has; bf16 is left to arith-expand and
// kiln-expand-small-floats, which may compute it in f32.
// CHECK-LABEL: func.func @scalars
//       CHECK:   llvm.intr.maximum({{.*}}) {{.*}} : (f16, f16) -> f16
//       CHECK:   arith.maximumf {{.*}} : bf16
//       CHECK:   llvm.intr.minimum({{.*}}) {{.*}} : (f32, f32) -> f32
//       CHECK:   llvm.intr.maxnum({{.*}}) {{.*}} : (f64, f64) -> f64
func.func @scalars(%h: f16, %b: bf16, %f: f32, %d: f64) -> (f16, bf16, f32, f64) {
  %0 = arith.maximumf %h, %h : f16
  %1 = arith.maximumf %b, %b : bf16
  %2 = arith.minimumf %f, %f : f32
  %3 = arith.maxnumf %d, %d : f64
  return %0, %1, %2, %3 : f16, bf16, f32, f64
}

// -----

// What LLVM has no type for is left to arith-expand: n-D vectors, 8-bit
// floats (computed in f32 later), scalable vectors.
// CHECK-LABEL: func.func @left_alone
//       CHECK:   arith.maximumf {{.*}} : vector<2x16xf32>
//       CHECK:   arith.minimumf {{.*}} : f8E4M3FN
//       CHECK:   arith.maxnumf {{.*}} : vector<[4]xf32>
//   CHECK-NOT:   llvm.intr
func.func @left_alone(%a: vector<2x16xf32>, %b: f8E4M3FN, %c: vector<[4]xf32>) -> (vector<2x16xf32>, f8E4M3FN, vector<[4]xf32>) {
  %0 = arith.maximumf %a, %a : vector<2x16xf32>
  %1 = arith.minimumf %b, %b : f8E4M3FN
  %2 = arith.maxnumf %c, %c : vector<[4]xf32>
  return %0, %1, %2 : vector<2x16xf32>, f8E4M3FN, vector<[4]xf32>
}
