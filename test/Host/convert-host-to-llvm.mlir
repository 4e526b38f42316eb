// RUN: kiln-opt %s --kiln-convert-host-to-llvm | FileCheck %s

// A launch calls the runtime's dispatch function, read from the first field
// of the host context, with the kernel (declared under its linked name),
// the workgroup grid, and on-stack arrays of binding pointers and of
// constants widened to 64 bits. Buffers come from the runtime
// (test/Host/lower-host-buffers.mlir).
// The launch also passes the workgroup scratch the kernel's lowering
// recorded on it (kiln.workgroup_scratch_bytes), 0 when it recorded none,
// and its row in the dispatch table (kiln.dispatch_id), or
// KILN_DISPATCH_UNKNOWN (2^32 - 1, -1 as an i32) without one.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    kiln.executable.export public @scale workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    kiln.executable.export public @plain workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      llvm.func @scale(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) attributes {kiln.workgroup_scratch_bytes = 270336 : i64} {
        llvm.return
      }
      llvm.func @plain(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
        llvm.return
      }
    }
  }
}

// CHECK-LABEL: llvm.func @run(
// CHECK-SAME:      %[[CTX:[^:]+]]: !llvm.ptr, %[[ALLOCATED:[^:]+]]: !llvm.ptr, %[[ALIGNED:[^:]+]]: !llvm.ptr, %[[OFFSET:[^:]+]]: i64,
// CHECK:         llvm.call %{{.+}}(%[[CTX]], %{{.+}}) : !llvm.ptr, (!llvm.ptr, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
// CHECK:         %[[KERNEL:.+]] = llvm.mlir.addressof @__kiln_kernel_ex_scale : !llvm.ptr
// CHECK:         %[[SAVED:.+]] = llvm.intr.stacksave
// CHECK:         %[[BINDINGS:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x ptr>
// CHECK:         %[[IN_PTR:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[SLOT0:.+]] = llvm.getelementptr %[[BINDINGS]][0]
// CHECK:         llvm.store %[[IN_PTR]], %[[SLOT0]]
// CHECK:         %[[SLOT1:.+]] = llvm.getelementptr %[[BINDINGS]][1]
// CHECK:         llvm.store %{{.+}}, %[[SLOT1]]
// CHECK:         %[[CONSTANTS:.+]] = llvm.alloca %{{.+}} x !llvm.array<2 x i64>
// CHECK:         %[[C0:.+]] = llvm.getelementptr %[[CONSTANTS]][0]
// CHECK:         llvm.store %{{.+}}, %[[C0]] : i64, !llvm.ptr
// CHECK:         %[[C1:.+]] = llvm.getelementptr %[[CONSTANTS]][1]
// CHECK:         %[[F_BITS:.+]] = llvm.bitcast %{{.+}} : f32 to i32
// CHECK:         %[[F_WIDE:.+]] = llvm.zext %[[F_BITS]] : i32 to i64
// CHECK:         llvm.store %[[F_WIDE]], %[[C1]] : i64, !llvm.ptr
// Counts are clamped to [0, 2^32 - 1] before they narrow to 32 bits.
// CHECK-DAG:     %[[ZERO:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-DAG:     %[[MAX:.+]] = llvm.mlir.constant(4294967295 : i64) : i64
// CHECK:         %[[X_MIN:.+]] = llvm.intr.smax(%{{.+}}, %[[ZERO]]) : (i64, i64) -> i64
// CHECK:         %[[X_CLAMPED:.+]] = llvm.intr.umin(%[[X_MIN]], %[[MAX]]) : (i64, i64) -> i64
// CHECK:         %[[X:.+]] = llvm.trunc %[[X_CLAMPED]] : i64 to i32
// CHECK:         %[[SCRATCH:.+]] = llvm.mlir.constant(270336 : i64) : i64
// CHECK:         %[[ID:.+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:         %[[DISPATCH:.+]] = llvm.load %[[CTX]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call %[[DISPATCH]](%[[CTX]], %[[KERNEL]], %[[ID]], %[[X]], %{{.+}}, %{{.+}}, %[[BINDINGS]], %[[CONSTANTS]], %[[SCRATCH]])
// CHECK:         llvm.intr.stackrestore %[[SAVED]]
// CHECK:         llvm.return

// The C interface wraps the function for the runtime.
// CHECK-LABEL: llvm.func @_mlir_ciface_run(
// CHECK:         llvm.call @run(
// A kernel that needs no scratch gets none.
// CHECK-LABEL: llvm.func @run_plain(
// CHECK:         llvm.trunc
// CHECK:         %[[NONE:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK-NEXT:    %[[UNKNOWN:.+]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT:    llvm.load
// CHECK-NEXT:    llvm.call %{{.+}}(%{{.+}}, %{{.+}}, %[[UNKNOWN]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[NONE]])
// CHECK:       llvm.func @__kiln_kernel_ex_scale(!llvm.ptr, i32, i32, i32, !llvm.ptr)
func.func @run(%ctx: !llvm.ptr, %a: memref<?xf32>, %s: f32) -> memref<?xf32> attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %b = kiln.alloc(%n) runtime(%ctx : !llvm.ptr) {alignment = 64 : i64} : memref<?xf32>
  kiln.launch @ex::@scale runtime(%ctx : !llvm.ptr) workgroups(%c1, %c1, %c1) ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) constants(%n, %s : index, f32) {kiln.dispatch_id = 3 : i64}
  return %b : memref<?xf32>
}

func.func @run_plain(%ctx: !llvm.ptr, %a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  kiln.launch @ex::@plain runtime(%ctx : !llvm.ptr) workgroups(%c1, %c1, %c1) outs(%a : memref<4xf32>)
  return
}
