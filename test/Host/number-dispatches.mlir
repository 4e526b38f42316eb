// RUN: kiln-opt %s --split-input-file --kiln-number-dispatches | FileCheck %s

// Entry points are numbered in the order host code first launches them; a
// launch of one already numbered gets its number. The table says what each
// is: the executable's name, its root op (kiln.root_op, "? ? ?" without
// one), the FLOPs the launch records, and the bytes its bindings hold (0
// when a binding's size is dynamic).
// CHECK-LABEL: module attributes {kiln.dispatch_table = [
// CHECK-SAME:    {bytes = 1280 : i64, flops = 2048 : i64, name = "mm", root = "linalg.matmul 8x16x8 f32"},
// CHECK-SAME:    {bytes = 0 : i64, flops = 0 : i64, name = "pad", root = "? ? ?"}]}
module {
  kiln.executable private @mm attributes {kiln.root_op = "linalg.matmul 8x16x8 f32"} {
    kiln.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @k() {
        return
      }
    }
  }
  kiln.executable private @pad {
    kiln.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @k() {
        return
      }
    }
  }
  // CHECK-LABEL: func.func @run
  // CHECK:         kiln.launch @mm::@k {{.*}} {kiln.dispatch_id = 0 : i64, kiln.flops = 2048 : i64}
  // CHECK:         kiln.launch @pad::@k {{.*}} {kiln.dispatch_id = 1 : i64}
  // CHECK:         kiln.launch @mm::@k {{.*}} {kiln.dispatch_id = 0 : i64, kiln.flops = 2048 : i64}
  func.func @run(%a: memref<8x8xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>, %d: memref<?xi8>) {
    %c1 = arith.constant 1 : index
    kiln.launch @mm::@k workgroups(%c1, %c1, %c1) ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {kiln.flops = 2048 : i64}
    kiln.launch @pad::@k workgroups(%c1, %c1, %c1) outs(%d : memref<?xi8>)
    kiln.launch @mm::@k workgroups(%c1, %c1, %c1) ins(%a, %b : memref<8x8xf32>, memref<8x16xf32>) outs(%c : memref<8x16xf32>) {kiln.flops = 2048 : i64}
    return
  }
}

// -----

// Without launches, the table is empty.
// CHECK-LABEL: module attributes {kiln.dispatch_table = []}
module {
}
