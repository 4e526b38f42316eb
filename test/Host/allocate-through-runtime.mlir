// RUN: kiln-opt %s --split-input-file --kiln-allocate-through-runtime --verify-diagnostics | FileCheck %s

// Host buffers come from the runtime, through the context each host
// function takes first; their sizes and alignment are kept. Declarations
// are left alone.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[CTX:.+]]: !llvm.ptr, %[[N:.+]]: index)
// CHECK:         %[[A:.+]] = kiln.alloc(%[[N]]) runtime(%[[CTX]] : !llvm.ptr) {alignment = 64 : i64} : memref<?x8xf32>
// CHECK:         %[[B:.+]] = kiln.alloc() runtime(%[[CTX]] : !llvm.ptr) : memref<4xi8>
// CHECK:         scf.if
// CHECK:           kiln.dealloc %[[B]] runtime(%[[CTX]] : !llvm.ptr) : memref<4xi8>
// CHECK:         kiln.dealloc %[[A]] runtime(%[[CTX]] : !llvm.ptr) : memref<?x8xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK:         func.func private @outside(memref<4xf32>)
func.func @main(%ctx: !llvm.ptr, %n: index) -> memref<4xi8> {
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x8xf32>
  %b = memref.alloc() : memref<4xi8>
  %true = arith.constant true
  scf.if %true {
    memref.dealloc %b : memref<4xi8>
  }
  memref.dealloc %a : memref<?x8xf32>
  %c = memref.alloc() : memref<4xi8>
  return %c : memref<4xi8>
}
func.func private @outside(memref<4xf32>)

// -----

// expected-error @+1 {{'func.func' op does not take the runtime context; run kiln-thread-runtime-context first}}
func.func @no_context(%n: index) {
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

func.func @layout(%ctx: !llvm.ptr) {
  // expected-error @+1 {{'memref.alloc' op cannot be allocated by the runtime: it allocates identity-layout buffers}}
  %a = memref.alloc() : memref<4xf32, strided<[2]>>
  return
}
