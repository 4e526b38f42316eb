// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-allocate-workgroup-scratch))' | FileCheck %s

// Static buffers that stay in place become views of one scratch, each at
// its own offset, a multiple of 64 bytes; their deallocs go (nothing owns
// scratch). A buffer allocated in a loop reuses its slot every iteration.
// CHECK-LABEL: func.func @kernel()
// CHECK:         %[[SCRATCH:.+]] = kiln.workgroup.scratch : memref<270656xi8>
// CHECK:         %[[PANEL:.+]] = memref.view %[[SCRATCH]][%{{.+}}][] : memref<270656xi8> to memref<256x264xf32>
// CHECK:         %[[C270336:.+]] = arith.constant 270336 : index
// CHECK:         %[[ODD:.+]] = memref.view %[[SCRATCH]][%[[C270336]]][] : memref<270656xi8> to memref<3xi8>
// CHECK:         scf.for
// CHECK:           %[[C270400:.+]] = arith.constant 270400 : index
// CHECK:           memref.view %[[SCRATCH]][%[[C270400]]][] : memref<270656xi8> to memref<8x8xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
func.func @kernel() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  %b = arith.constant 1 : i8
  %panel = memref.alloc() {alignment = 64 : i64} : memref<256x264xf32>
  %odd = memref.alloc() : memref<3xi8>
  memref.store %f, %panel[%c0, %c0] : memref<256x264xf32>
  %sub = memref.subview %panel[0, 0] [16, 16] [1, 1] : memref<256x264xf32> to memref<16x16xf32, strided<[264, 1]>>
  memref.store %f, %sub[%c1, %c1] : memref<16x16xf32, strided<[264, 1]>>
  memref.store %b, %odd[%c1] : memref<3xi8>
  scf.for %i = %c0 to %c4 step %c1 {
    %tile = memref.alloc() : memref<8x8xf32>
    memref.store %f, %tile[%i, %i] : memref<8x8xf32>
    memref.dealloc %tile : memref<8x8xf32>
  }
  memref.dealloc %panel : memref<256x264xf32>
  memref.dealloc %odd : memref<3xi8>
  return
}

// -----

// A partial tile's buffer, sized by an affine.min, gets a slot as large as
// its largest size; the view keeps the dynamic size.
// CHECK-LABEL: func.func @partial_tile()
// CHECK:         %[[SCRATCH:.+]] = kiln.workgroup.scratch : memref<32768xi8>
// CHECK:         %[[ROWS:.+]] = affine.min
// CHECK:         memref.view %[[SCRATCH]][%{{.+}}][%[[ROWS]]] : memref<32768xi8> to memref<?x128xf32>
// CHECK-NOT:     memref.alloc
func.func @partial_tile() {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  %id = kiln.workgroup.id 0 : index
  %rows = affine.min affine_map<(d0) -> (64, 257 - d0 * 64)>(%id)
  %tile = memref.alloc(%rows) {alignment = 64 : i64} : memref<?x128xf32>
  memref.store %f, %tile[%c0, %c0] : memref<?x128xf32>
  memref.dealloc %tile : memref<?x128xf32>
  return
}

// -----

// What may outlive its use stays a heap buffer: yielded out of a loop or
// an if, returned, passed to a call, turned into a tensor; sizes without an
// upper bound (a dispatch constant), alignments past 64 bytes, and
// functions that are not kernels too.
// CHECK-LABEL: func.func @escapes()
// CHECK-NOT:     kiln.workgroup.scratch
// CHECK-COUNT-5: memref.alloc
func.func private @use(memref<64xf32>)
func.func @escapes() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %true = arith.constant true
  %init = memref.alloc() : memref<64xf32>
  %last = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %init) -> memref<64xf32> {
    %next = memref.alloc() : memref<64xf32>
    scf.yield %next : memref<64xf32>
  }
  %passed = memref.alloc() : memref<64xf32>
  func.call @use(%passed) : (memref<64xf32>) -> ()
  %n = kiln.dispatch.constant 0 : index
  %dynamic = memref.alloc(%n) : memref<?xf32>
  %aligned = memref.alloc() {alignment = 128 : i64} : memref<64xf32>
  return
}

// -----

// CHECK-LABEL: func.func @not_a_kernel(
// CHECK:         memref.alloc
func.func @not_a_kernel(%x: index) {
  %a = memref.alloc() : memref<64xf32>
  return
}
