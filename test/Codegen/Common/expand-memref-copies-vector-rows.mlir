// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-expand-memref-copies{vector-rows=true}))' | FileCheck %s

// Rows contiguous on both sides and of a static length move as one vector
// each; the loops run over the other dims.
// CHECK-LABEL: func.func @strided_rows
// CHECK-SAME:    (%[[SRC:.+]]: memref<8x64xf32>, %[[DST:.+]]: memref<4x32xf32, {{.+}}>)
// CHECK-NOT:     memref.copy
// CHECK:         %[[SUB:.+]] = memref.subview %[[SRC]]
// CHECK:         scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
// CHECK-NOT:       scf.for
// CHECK:           %[[ROW:.+]] = vector.load %[[SUB]][%[[I]], %{{.+}}] : memref<4x32xf32, {{.+}}>, vector<32xf32>
// CHECK:           vector.store %[[ROW]], %[[DST]][%[[I]], %{{.+}}] : memref<4x32xf32, {{.+}}>, vector<32xf32>
func.func @strided_rows(%src: memref<8x64xf32>, %dst: memref<4x32xf32, strided<[64, 1], offset: ?>>) {
  %sub = memref.subview %src[2, 4] [4, 32] [1, 1] : memref<8x64xf32> to memref<4x32xf32, strided<[64, 1], offset: 132>>
  memref.copy %sub, %dst : memref<4x32xf32, strided<[64, 1], offset: 132>> to memref<4x32xf32, strided<[64, 1], offset: ?>>
  return
}

// -----

// A small static copy between contiguous views would be a memcpy call of a
// size LLVM does not see; it becomes a vector move.
// CHECK-LABEL: func.func @small_dense
// CHECK-NOT:     memref.copy
// CHECK:         %[[ROW:.+]] = vector.load %{{.+}} : memref<1x1x32xf32, {{.+}}>, vector<32xf32>
// CHECK:         vector.store %[[ROW]], %{{.+}} : memref<1x1x32xf32, {{.+}}>, vector<32xf32>
func.func @small_dense(%src: memref<1x1x32xf32, strided<[4096, 64, 1], offset: ?>>, %dst: memref<1x1x32xf32, strided<[2048, 64, 1], offset: ?>>) {
  memref.copy %src, %dst : memref<1x1x32xf32, strided<[4096, 64, 1], offset: ?>> to memref<1x1x32xf32, strided<[2048, 64, 1], offset: ?>>
  return
}

// -----

// Large dense copies stay memcpy; rows of a dynamic length, of a strided
// innermost dim, or longer than 256 elements are copied element by element.
// CHECK-LABEL: func.func @others
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<64x64xf32> to memref<64x64xf32>
// CHECK-NOT:     vector.load
// CHECK:         memref.load
// CHECK:         memref.load
// CHECK:         memref.load
// CHECK-NOT:     vector.load
func.func @others(%a: memref<64x64xf32>, %b: memref<64x64xf32>,
                  %c: memref<4x?xf32, strided<[?, 1], offset: ?>>, %d: memref<4x?xf32>,
                  %e: memref<4x8xf32, strided<[64, 2]>>, %f: memref<4x8xf32>,
                  %g: memref<2x300xf32, strided<[512, 1]>>, %h: memref<2x300xf32>) {
  memref.copy %a, %b : memref<64x64xf32> to memref<64x64xf32>
  memref.copy %c, %d : memref<4x?xf32, strided<[?, 1], offset: ?>> to memref<4x?xf32>
  memref.copy %e, %f : memref<4x8xf32, strided<[64, 2]>> to memref<4x8xf32>
  memref.copy %g, %h : memref<2x300xf32, strided<[512, 1]>> to memref<2x300xf32>
  return
}
