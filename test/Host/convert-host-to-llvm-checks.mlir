// RUN: kiln-opt %s --kiln-convert-host-to-llvm | FileCheck %s

// A check calls the runtime's "kiln.check" import, the first of the
// module's imports, through the host context (imports at field 1) with a
// kiln_check_args on the stack: kind, location, two tensor views (data,
// sizes, rank, element type), atol and rtol.
// CHECK-LABEL: module attributes {kiln.imports = ["kiln.check"]}
// CHECK:       llvm.func @test(%[[CTX:[^:]+]]: !llvm.ptr,
// CHECK:         %[[KIND:.+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         llvm.insertvalue %[[KIND]], %{{.+}}[0]
// CHECK:         %[[WHERE:.+]] = llvm.mlir.addressof @[[STRING:__kiln_string_[0-9]+]] : !llvm.ptr
// CHECK:         llvm.insertvalue %[[WHERE]], %{{.+}}[2]
// CHECK:         %[[DIMS:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x i64>
// CHECK:         %[[RANK:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         llvm.insertvalue %[[RANK]], %{{.+}}[2] : !llvm.struct<(ptr, ptr, i32, i32)>
// CHECK:         %[[F32:.+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:         llvm.insertvalue %[[F32]], %{{.+}}[3] : !llvm.struct<(ptr, ptr, i32, i32)>
// CHECK:         %[[ATOL:.+]] = llvm.mlir.constant(0.0010000000474974513 : f64) : f64
// CHECK:         llvm.insertvalue %[[ATOL]], %{{.+}}[5]
// CHECK:         %[[ARGS:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(i32, i32, ptr, struct<(ptr, ptr, i32, i32)>, struct<(ptr, ptr, i32, i32)>, f64, f64)>
// CHECK:         %[[FIELD:.+]] = llvm.getelementptr %[[CTX]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[IMPORTS:.+]] = llvm.load %[[FIELD]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[SLOT:.+]] = llvm.getelementptr %[[IMPORTS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[CHECK:.+]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call %[[CHECK]](%[[CTX]], %[[ARGS]]) : !llvm.ptr, (!llvm.ptr, !llvm.ptr) -> ()
// A scalar goes through a stack slot, with rank 0 and no sizes.
// CHECK:         %[[SCALAR:.+]] = llvm.alloca %{{.+}} x i32
// CHECK:         llvm.store %{{.+}}, %[[SCALAR]] : i32, !llvm.ptr
// CHECK:       llvm.mlir.global internal constant @[[STRING]]("{{.*}}convert-host-to-llvm-checks.mlir:{{[0-9]+}}:3\00")
func.func @test(%ctx: !llvm.ptr, %a: memref<2x3xf32>, %i: i32) {
  kiln.check almost_eq(%a, %a) runtime(%ctx : !llvm.ptr) {atol = 1.0e-3 : f32} : memref<2x3xf32>, memref<2x3xf32>
  kiln.check true(%i) runtime(%ctx : !llvm.ptr) : i32
  return
}
