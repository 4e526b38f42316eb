// RUN: kiln-opt %s --kiln-convert-host-to-llvm | FileCheck %s

// kiln.alloc calls the runtime's "kiln.allocate" import, the first entry of
// context->imports here, with the element count, the element size, the
// alignment (0: the runtime's default) and where the buffer is in the
// program; the element count is checked on the way: a negative dynamic size
// passes -1, a product past 2^63 - 1 passes -2. The buffer is both the
// allocated and the aligned pointer of the descriptor. kiln.dealloc calls
// "kiln.free" (the second import) with the allocated pointer.

// CHECK-LABEL: module attributes {kiln.imports = ["kiln.allocate", "kiln.free"]}
// CHECK-LABEL: llvm.func @run(
// CHECK-SAME:      %[[CTX:[^:]+]]: !llvm.ptr, %[[N:[^:]+]]: i64)
// CHECK:         llvm.select
// CHECK:         %[[T_COUNT:.+]] = llvm.select
// CHECK:         %[[T_LOCATION:.+]] = llvm.mlir.addressof @[[T_STRING:__kiln_string_[0-9]+]]
// CHECK:         %[[IMPORTS:.+]] = llvm.getelementptr %[[CTX]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[TABLE:.+]] = llvm.load %[[IMPORTS]]
// CHECK:         %[[SLOT:.+]] = llvm.getelementptr %[[TABLE]][0]
// CHECK:         %[[ALLOCATE:.+]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[T:.+]] = llvm.call %[[ALLOCATE]](%[[CTX]], %[[T_COUNT]], %{{.+}}, %{{.+}}, %[[T_LOCATION]]) : !llvm.ptr, (!llvm.ptr, i64, i64, i64, !llvm.ptr) -> !llvm.ptr

// The dynamic size is checked for sign and overflow.
// CHECK:         %[[ZERO:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK:         %[[NEGATIVE:.+]] = llvm.icmp "slt" %[[N]], %[[ZERO]] : i64
// CHECK:         %[[ANY_NEGATIVE:.+]] = llvm.or %{{.+}}, %[[NEGATIVE]] : i1
// CHECK:         "llvm.intr.smul.with.overflow"(%{{.+}}, %[[N]]) : (i64, i64) -> !llvm.struct<(i64, i1)>
// CHECK:         %[[P1:.+]] = "llvm.intr.smul.with.overflow"(%{{.+}}, %{{.+}}) : (i64, i64) -> !llvm.struct<(i64, i1)>
// CHECK:         %[[PRODUCT:.+]] = llvm.extractvalue %[[P1]][0]
// CHECK:         %[[OVERFLOW:.+]] = llvm.or %{{.+}}, %{{.+}} : i1
// CHECK:         %[[MINUS2:.+]] = llvm.mlir.constant(-2 : i64) : i64
// CHECK:         %[[CHECKED:.+]] = llvm.select %[[OVERFLOW]], %[[MINUS2]], %[[PRODUCT]] : i1, i64
// CHECK:         %[[MINUS1:.+]] = llvm.mlir.constant(-1 : i64) : i64
// CHECK:         %[[COUNT:.+]] = llvm.select %[[ANY_NEGATIVE]], %[[MINUS1]], %[[CHECKED]] : i1, i64
// CHECK:         %[[ALIGNMENT:.+]] = llvm.mlir.constant(128 : i64) : i64
// CHECK:         %[[B_LOCATION:.+]] = llvm.mlir.addressof @[[B_STRING:__kiln_string_[0-9]+]]
// CHECK:         %[[B:.+]] = llvm.call %{{.+}}(%[[CTX]], %[[COUNT]], %{{.+}}, %[[ALIGNMENT]], %[[B_LOCATION]])
// CHECK:         %[[D0:.+]] = llvm.insertvalue %[[B]], %{{.+}}[0]
// CHECK:         llvm.insertvalue %[[B]], %[[D0]][1]

// CHECK:         %[[T_ALLOCATED:.+]] = llvm.extractvalue %{{.+}}[0]
// CHECK:         %[[IMPORTS2:.+]] = llvm.getelementptr %[[CTX]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[TABLE2:.+]] = llvm.load %[[IMPORTS2]]
// CHECK:         %[[FREE_SLOT:.+]] = llvm.getelementptr %[[TABLE2]][1]
// CHECK:         %[[FREE:.+]] = llvm.load %[[FREE_SLOT]]
// CHECK:         llvm.call %[[FREE]](%[[CTX]], %[[T_ALLOCATED]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr) -> ()
// CHECK-NOT:     malloc
// CHECK:         llvm.mlir.global internal constant @[[T_STRING]]("prog.mlir:3:8\00")
// CHECK:         llvm.mlir.global internal constant @[[B_STRING]]("prog.mlir:4:10\00")
func.func @run(%ctx: !llvm.ptr, %n: index) -> memref<?x3xf32> {
  %t = kiln.alloc() runtime(%ctx : !llvm.ptr) : memref<2xi8> loc("prog.mlir":3:8)
  %b = kiln.alloc(%n) runtime(%ctx : !llvm.ptr) {alignment = 128 : i64} : memref<?x3xf32> loc("prog.mlir":4:10)
  kiln.dealloc %t runtime(%ctx : !llvm.ptr) : memref<2xi8>
  return %b : memref<?x3xf32>
}
