// RUN: kiln-opt %s --kiln-lower-kernel-interface | FileCheck %s

// The kernel takes (state, x, y, z, scratch) as kiln_kernel_fn in
// kiln_module_abi.h declares it: state->bindings at byte 0,
// state->constants at byte 8, state->workgroup_count at byte 16.
// CHECK-LABEL: func.func @kernel(
// CHECK-SAME:      %[[STATE:[^:]+]]: !llvm.ptr, %[[X:[^:]+]]: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: !llvm.ptr)
// CHECK-NOT:     kiln.workgroup_scratch_bytes
// CHECK:         %[[BINDINGS_ADDR:.+]] = llvm.getelementptr %[[STATE]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         %[[BINDINGS:.+]] = llvm.load %[[BINDINGS_ADDR]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[CONSTANTS_ADDR:.+]] = llvm.getelementptr %[[STATE]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         %[[CONSTANTS:.+]] = llvm.load %[[CONSTANTS_ADDR]] : !llvm.ptr -> !llvm.ptr

// Constants are 64-bit slots: an index is cast, an f32 narrowed and
// reinterpreted.
// CHECK:         %[[N_ADDR:.+]] = llvm.getelementptr %[[CONSTANTS]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[N_BITS:.+]] = llvm.load %[[N_ADDR]] : !llvm.ptr -> i64
// CHECK:         %[[N:.+]] = arith.index_cast %[[N_BITS]] : i64 to index
// CHECK:         %[[S_ADDR:.+]] = llvm.getelementptr %[[CONSTANTS]][1] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK:         %[[S_BITS:.+]] = llvm.load %[[S_ADDR]] : !llvm.ptr -> i64
// CHECK:         %[[S_I32:.+]] = arith.trunci %[[S_BITS]] : i64 to i32
// CHECK:         %[[S:.+]] = arith.bitcast %[[S_I32]] : i32 to f32

// A binding is a descriptor over its pointer, sized by its dynamic
// dimensions, 64-byte aligned.
// CHECK:         %[[A_ADDR:.+]] = llvm.getelementptr %[[BINDINGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[A_PTR:.+]] = llvm.load %[[A_ADDR]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.insertvalue %[[A_PTR]], %{{.+}}[0]
// CHECK:         %[[A_DESC:.+]] = builtin.unrealized_conversion_cast %{{.+}} : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x4xf32>
// CHECK:         %[[A:.+]] = memref.assume_alignment %[[A_DESC]], 64 : memref<?x4xf32>
// CHECK:         %[[O_ADDR:.+]] = llvm.getelementptr %[[BINDINGS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[O:.+]] = memref.assume_alignment %{{.+}}, 64 : memref<?x4xf32>

// The workgroup id is an argument, the count a load.
// CHECK:         %[[ID:.+]] = arith.index_castui %[[X]] : i32 to index
// CHECK:         %[[COUNT_ADDR:.+]] = llvm.getelementptr %[[STATE]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:         %[[COUNT_I32:.+]] = llvm.load %[[COUNT_ADDR]] : !llvm.ptr -> i32
// CHECK:         %[[COUNT:.+]] = arith.index_castui %[[COUNT_I32]] : i32 to index
// CHECK:         scf.for %[[I:.+]] = %[[ID]] to %[[N]] step %[[COUNT]]
// CHECK:           memref.load %[[A]]
// CHECK:           arith.mulf %{{.+}}, %[[S]]
// CHECK:           memref.store %{{.+}}, %[[O]]

// The scratch is a descriptor over the last argument; the kernel records
// the largest size any of its ops asked for.
// CHECK-LABEL: func.func @scratch(
// CHECK-SAME:      %{{[^:]+}}: !llvm.ptr, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %{{[^:]+}}: i32, %[[SCRATCH:[^:]+]]: !llvm.ptr)
// CHECK-SAME:      attributes {kiln.workgroup_scratch_bytes = 8192 : i64}
// CHECK:         llvm.insertvalue %[[SCRATCH]], %{{.+}}[0]
// CHECK:         llvm.insertvalue %[[SCRATCH]], %{{.+}}[1]
// CHECK:         %[[DESC:.+]] = builtin.unrealized_conversion_cast %{{.+}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<8192xi8>
// CHECK:         memref.assume_alignment %[[DESC]], 64 : memref<8192xi8>
// CHECK-NOT:     kiln.workgroup.scratch

// Functions that are not kernels keep their signature.
// CHECK-LABEL: func.func private @helper(%{{.+}}: f32) -> f32
module {
  func.func @kernel() {
    %n = kiln.dispatch.constant 0 : index
    %s = kiln.dispatch.constant 1 : f32
    %a = kiln.dispatch.binding 0 readonly : memref<?x4xf32>{%n}
    %o = kiln.dispatch.binding 1 : memref<?x4xf32>{%n}
    %id = kiln.workgroup.id 0 : index
    %count = kiln.workgroup.count 0 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %id to %n step %count {
      scf.for %j = %id to %c4 step %count {
        %x = memref.load %a[%i, %j] : memref<?x4xf32>
        %y = arith.mulf %x, %s : f32
        memref.store %y, %o[%i, %j] : memref<?x4xf32>
      }
    }
    return
  }
  func.func @scratch() {
    %s = kiln.workgroup.scratch : memref<8192xi8>
    %t = kiln.workgroup.scratch : memref<64xi8>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i8
    memref.store %c1, %s[%c0] : memref<8192xi8>
    memref.store %c1, %t[%c0] : memref<64xi8>
    return
  }
  func.func private @helper(%x: f32) -> f32 {
    return %x : f32
  }
}
