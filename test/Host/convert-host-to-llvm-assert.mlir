// RUN: kiln-opt %s --kiln-convert-host-to-llvm | FileCheck %s

// An assertion branches on its condition: on to the rest of the function,
// or to a call of the runtime's "kiln.fail" import (through the host
// context: imports at field 1) with the location, the message and its
// values as i64 (index as it is, i32 sign-extended, i1 zero-extended),
// which does not return.
// CHECK-LABEL: module attributes {kiln.imports = ["kiln.fail"]}
// CHECK:       llvm.func @test(%[[CTX:[^:]+]]: !llvm.ptr, %[[OK:[^:]+]]: i1, %[[N:[^:]+]]: i64, %[[M:[^:]+]]: i32, %[[B:[^:]+]]: i1)
// CHECK:         llvm.cond_br %[[OK]] weights([1048576, 1]), ^[[GO:.+]], ^[[FAIL:[^ ]+]]
// CHECK:       ^[[FAIL]]:
// CHECK:         %[[VALUES:.+]] = llvm.alloca %{{.+}} x !llvm.array<3 x i64>
// CHECK:         llvm.store %[[N]], %{{.+}} : i64, !llvm.ptr
// CHECK:         %[[WIDE:.+]] = llvm.sext %[[M]] : i32 to i64
// CHECK:         llvm.store %[[WIDE]]
// CHECK:         %[[BIT:.+]] = llvm.zext %[[B]] : i1 to i64
// CHECK:         llvm.store %[[BIT]]
// CHECK:         %[[FIELD:.+]] = llvm.getelementptr %[[CTX]][1]
// CHECK:         %[[IMPORTS:.+]] = llvm.load %[[FIELD]]
// CHECK:         %[[SLOT:.+]] = llvm.getelementptr %[[IMPORTS]][0]
// CHECK:         %[[FAILFN:.+]] = llvm.load %[[SLOT]]
// CHECK:         llvm.call %[[FAILFN]](%[[CTX]], %{{.+}}, %{{.+}}, %[[VALUES]], %{{.+}}) : !llvm.ptr, (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32) -> ()
// CHECK:         llvm.unreachable
// CHECK:       ^[[GO]]:
// CHECK:         llvm.return
// CHECK:       llvm.mlir.global internal constant @{{.+}}("{{.*}}convert-host-to-llvm-assert.mlir:{{[0-9]+}}:3\00")
// CHECK:       llvm.mlir.global internal constant @{{.+}}("{0} of {1} and {2}\00")
func.func @test(%ctx: !llvm.ptr, %ok: i1, %n: index, %m: i32, %b: i1) {
  kiln.assert %ok, "{0} of {1} and {2}" (%n, %m, %b : index, i32, i1) runtime(%ctx : !llvm.ptr)
  return
}
