// RUN: kiln-opt %s --split-input-file --allow-unregistered-dialect --pass-pipeline='builtin.module(func.func(kiln-plan-host-memory))' | FileCheck %s

// Three intermediates of 256 KiB in a chain: %c is born after %a dies and
// takes its bytes; the returned buffer keeps its own allocation.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      kiln.host_arena = array<i64: 524288, 786432>
// CHECK:         %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<524288xi8>
// CHECK:         %[[OFF_A:.+]] = arith.constant 0 : index
// CHECK:         %[[A:.+]] = memref.view %[[ARENA]][%[[OFF_A]]][] : memref<524288xi8> to memref<256x256xf32>
// CHECK:         "test.write"(%[[A]])
// CHECK:         %[[OFF_B:.+]] = arith.constant 262144 : index
// CHECK:         %[[B:.+]] = memref.view %[[ARENA]][%[[OFF_B]]][] : memref<524288xi8> to memref<256x256xf32>
// CHECK:         "test.copy"(%[[A]], %[[B]])
// CHECK-NOT:     memref.dealloc %[[A]]
// CHECK:         %[[OFF_C:.+]] = arith.constant 0 : index
// CHECK:         %[[C:.+]] = memref.view %[[ARENA]][%[[OFF_C]]][] : memref<524288xi8> to memref<256x256xf32>
// CHECK:         "test.copy"(%[[B]], %[[C]])
// CHECK:         %[[OUT:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         "test.copy"(%[[C]], %[[OUT]])
// CHECK-NOT:     memref.dealloc %[[B]]
// CHECK-NOT:     memref.dealloc %[[C]]
// CHECK:         memref.dealloc %[[ARENA]] : memref<524288xi8>
// CHECK-NEXT:    return %[[OUT]]
func.func @chain() -> memref<4xf32> {
  %a = memref.alloc() : memref<256x256xf32>
  "test.write"(%a) : (memref<256x256xf32>) -> ()
  %b = memref.alloc() : memref<256x256xf32>
  "test.copy"(%a, %b) : (memref<256x256xf32>, memref<256x256xf32>) -> ()
  memref.dealloc %a : memref<256x256xf32>
  %c = memref.alloc() : memref<256x256xf32>
  "test.copy"(%b, %c) : (memref<256x256xf32>, memref<256x256xf32>) -> ()
  memref.dealloc %b : memref<256x256xf32>
  %out = memref.alloc() : memref<4xf32>
  "test.copy"(%c, %out) : (memref<256x256xf32>, memref<4xf32>) -> ()
  memref.dealloc %c : memref<256x256xf32>
  return %out : memref<4xf32>
}

// -----

// Largest first, each at the lowest offset free for its lifetime: %mid,
// born when %big is dead, starts at 0 too; %small lives across both, so it
// goes after %big; %late fits in the gap between %mid and %small, at its
// own alignment (256), which the arena takes. Buffers apart would take
// their sizes rounded up to 64 bytes.
// CHECK-LABEL: func.func @greedy(
// CHECK-SAME:      kiln.host_arena = array<i64: 1064, 1664>
// CHECK:         %[[ARENA:.+]] = memref.alloc() {alignment = 256 : i64} : memref<1064xi8>
// CHECK:         %[[O1:.+]] = arith.constant 0 : index
// CHECK:         memref.view %[[ARENA]][%[[O1]]][] : memref<1064xi8> to memref<256xf32>
// CHECK:         %[[O2:.+]] = arith.constant 1024 : index
// CHECK:         memref.view %[[ARENA]][%[[O2]]][] : memref<1064xi8> to memref<10xf32>
// CHECK:         %[[O3:.+]] = arith.constant 0 : index
// CHECK:         memref.view %[[ARENA]][%[[O3]]][] : memref<1064xi8> to memref<128xf32>
// CHECK:         %[[O4:.+]] = arith.constant 512 : index
// CHECK:         memref.view %[[ARENA]][%[[O4]]][] : memref<1064xi8> to memref<3xi8>
func.func @greedy() {
  %big = memref.alloc() : memref<256xf32>
  %small = memref.alloc() : memref<10xf32>
  "test.use"(%big, %small) : (memref<256xf32>, memref<10xf32>) -> ()
  memref.dealloc %big : memref<256xf32>
  %mid = memref.alloc() : memref<128xf32>
  %late = memref.alloc() {alignment = 256 : i64} : memref<3xi8>
  "test.use"(%mid, %small, %late) : (memref<128xf32>, memref<10xf32>, memref<3xi8>) -> ()
  memref.dealloc %small : memref<10xf32>
  memref.dealloc %mid : memref<128xf32>
  memref.dealloc %late : memref<3xi8>
  return
}

// -----

// Left alone: dynamic shapes, buffers freed in a nested region or not at
// all, elements that are not whole bytes, buffers in nested regions, and a
// function with a single plannable buffer.
// CHECK-LABEL: func.func @unplanned(
// CHECK-NOT:     kiln.host_arena
// CHECK-NOT:     memref.view
// CHECK:         return
func.func @unplanned(%n: index, %flag: i1) -> memref<8xf32> {
  %dynamic = memref.alloc(%n) : memref<?xf32>
  %conditional = memref.alloc() : memref<8xf32>
  %bits = memref.alloc() : memref<64xi1>
  %one = memref.alloc() : memref<16xf32>
  scf.if %flag {
    memref.dealloc %conditional : memref<8xf32>
    %nested = memref.alloc() : memref<32xf32>
    "test.use"(%nested) : (memref<32xf32>) -> ()
    memref.dealloc %nested : memref<32xf32>
  }
  "test.use"(%dynamic, %bits, %one) : (memref<?xf32>, memref<64xi1>, memref<16xf32>) -> ()
  memref.dealloc %dynamic : memref<?xf32>
  memref.dealloc %bits : memref<64xi1>
  memref.dealloc %one : memref<16xf32>
  %out = memref.alloc() : memref<8xf32>
  return %out : memref<8xf32>
}

// -----

// As buffer deallocation leaves them: every dealloc at the end. A buffer
// lives until the last use of it or of a view of it: %a's collapsed view
// is read by the copy into %b, so %b cannot take its bytes; %c, born
// after, can. Buffers that may escape through an op that is not a view (a
// select) live until their deallocs: %d and %e do not share.
// CHECK-LABEL: func.func @last_use(
// CHECK-SAME:      kiln.host_arena = array<i64: 2048, 5120>
// CHECK:         %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2048xi8>
// CHECK:         %[[OA:.+]] = arith.constant 0 : index
// CHECK:         memref.view %[[ARENA]][%[[OA]]][] : memref<2048xi8> to memref<16x16xf32>
// CHECK:         %[[OB:.+]] = arith.constant 1024 : index
// CHECK:         memref.view %[[ARENA]][%[[OB]]][] : memref<2048xi8> to memref<256xf32>
// CHECK:         %[[OC:.+]] = arith.constant 0 : index
// CHECK:         memref.view %[[ARENA]][%[[OC]]][] : memref<2048xi8> to memref<256xf32>
// CHECK:         %[[OD:.+]] = arith.constant 0 : index
// CHECK:         %[[D:.+]] = memref.view %[[ARENA]][%[[OD]]][] : memref<2048xi8> to memref<256xf32>
// CHECK:         %[[OE:.+]] = arith.constant 1024 : index
// CHECK:         %[[E:.+]] = memref.view %[[ARENA]][%[[OE]]][] : memref<2048xi8> to memref<256xf32>
// CHECK:         arith.select %{{.+}}, %[[D]], %[[E]]
// CHECK:         memref.dealloc %[[ARENA]]
// CHECK-NEXT:    return
func.func @last_use(%flag: i1) {
  %a = memref.alloc() : memref<16x16xf32>
  "test.write"(%a) : (memref<16x16xf32>) -> ()
  %flat = memref.collapse_shape %a [[0, 1]] : memref<16x16xf32> into memref<256xf32>
  %b = memref.alloc() : memref<256xf32>
  "test.copy"(%flat, %b) : (memref<256xf32>, memref<256xf32>) -> ()
  %c = memref.alloc() : memref<256xf32>
  "test.copy"(%b, %c) : (memref<256xf32>, memref<256xf32>) -> ()
  %d = memref.alloc() : memref<256xf32>
  %e = memref.alloc() : memref<256xf32>
  %s = arith.select %flag, %d, %e : memref<256xf32>
  "test.write"(%s) : (memref<256xf32>) -> ()
  memref.dealloc %a : memref<16x16xf32>
  memref.dealloc %b : memref<256xf32>
  memref.dealloc %c : memref<256xf32>
  memref.dealloc %d : memref<256xf32>
  memref.dealloc %e : memref<256xf32>
  return
}

// -----

// Two buffers of 2^62 bytes one after the other share the arena; apart
// they would take more than 63 bits can count, which the record clamps.
// CHECK-LABEL: func.func @huge(
// CHECK-SAME:      kiln.host_arena = array<i64: 4611686018427387904, 9223372036854775807>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<4611686018427387904xi8>
func.func @huge() {
  %a = memref.alloc() : memref<1073741824x1073741824xf32>
  "test.write"(%a) : (memref<1073741824x1073741824xf32>) -> ()
  memref.dealloc %a : memref<1073741824x1073741824xf32>
  %b = memref.alloc() : memref<1073741824x1073741824xf32>
  "test.write"(%b) : (memref<1073741824x1073741824xf32>) -> ()
  memref.dealloc %b : memref<1073741824x1073741824xf32>
  return
}
