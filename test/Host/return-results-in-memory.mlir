// RUN: kiln-opt %s --split-input-file --kiln-return-results-in-memory | FileCheck %s

// A function whose C interface wrapper stores its whole result takes the
// wrapper's result pointer first and stores each result to its field there,
// as soon as the result is defined; the struct of results is never
// built, and the wrapper's call returns nothing.
!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
!pair = !llvm.struct<(!desc, !desc)>

// CHECK-LABEL: llvm.func @kiln.fn.two(
// CHECK-SAME:      %[[OUT:[^:]+]]: !llvm.ptr {llvm.nonnull, llvm.noundef}, %[[CTX:[^:]+]]: !llvm.ptr, %[[A:[^:]+]]: !llvm.struct
// CHECK-NOT:     llvm.insertvalue
// CHECK:         %[[AT0:.+]] = llvm.getelementptr %[[OUT]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct
// CHECK-NEXT:    llvm.store %[[A]], %[[AT0]]
// CHECK-NEXT:    %[[C:.+]] = llvm.call @make(%[[CTX]])
// CHECK-NEXT:    %[[AT1:.+]] = llvm.getelementptr %[[OUT]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(struct
// CHECK-NEXT:    llvm.store %[[C]], %[[AT1]]
// CHECK-NEXT:    llvm.call @work(%[[CTX]])
// CHECK-NEXT:    llvm.return{{$}}
llvm.func @kiln.fn.two(%ctx: !llvm.ptr, %a: !desc) -> !pair {
  %0 = llvm.mlir.poison : !pair
  %1 = llvm.insertvalue %a, %0[0] : !pair
  %c = llvm.call @make(%ctx) : (!llvm.ptr) -> !desc
  %2 = llvm.insertvalue %c, %1[1] : !pair
  llvm.call @work(%ctx) : (!llvm.ptr) -> ()
  llvm.return %2 : !pair
}
llvm.func @make(!llvm.ptr) -> !desc
llvm.func @work(!llvm.ptr)

// CHECK-LABEL: llvm.func @_mlir_ciface_kiln.fn.two(
// CHECK-SAME:      %[[OUT:[^:]+]]: !llvm.ptr, %[[CTX:[^:]+]]: !llvm.ptr, %[[A:[^:]+]]: !llvm.struct
// CHECK-NEXT:    llvm.call @kiln.fn.two(%[[OUT]], %[[CTX]], %[[A]]) : (!llvm.ptr, !llvm.ptr, !llvm.struct<{{.*}}>) -> (){{$}}
// CHECK-NEXT:    llvm.return
llvm.func @_mlir_ciface_kiln.fn.two(%out: !llvm.ptr, %ctx: !llvm.ptr, %a: !desc) {
  %0 = llvm.call @kiln.fn.two(%ctx, %a) : (!llvm.ptr, !desc) -> !pair
  llvm.store %0, %out : !pair, !llvm.ptr
  llvm.return
}

// -----

// With two returns, each stores its own results where it returns; a result
// the chain of llvm.insertvalue gives only in part is extracted whole, and
// fields never set are not stored.
!s = !llvm.struct<(i32, i64, array<2 x i64>)>

// CHECK-LABEL: llvm.func @kiln.fn.branches(
// CHECK-SAME:      %[[OUT:[^:]+]]: !llvm.ptr {llvm.nonnull, llvm.noundef}, %[[C:[^:]+]]: i1, %[[X:[^:]+]]: i32, %[[Y:[^:]+]]: i64)
// CHECK:         llvm.cond_br %[[C]], ^[[THEN:.+]], ^[[ELSE:.+]]
// CHECK:       ^[[THEN]]:
// CHECK-NEXT:    %[[P:.+]] = llvm.getelementptr %[[OUT]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i64, array<2 x i64>)>
// CHECK-NEXT:    llvm.store %[[X]], %[[P]] : i32, !llvm.ptr
// CHECK-NEXT:    %[[Q:.+]] = llvm.getelementptr %[[OUT]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i64, array<2 x i64>)>
// CHECK-NEXT:    llvm.store %[[Y]], %[[Q]] : i64, !llvm.ptr
// CHECK-NEXT:    llvm.return{{$}}
// CHECK:       ^[[ELSE]]:
// CHECK:         %[[PART:.+]] = llvm.insertvalue %[[Y]], %{{.+}}[2, 1]
// CHECK:         %[[WHOLE:.+]] = llvm.extractvalue %[[PART]][2]
// CHECK-NEXT:    %[[R:.+]] = llvm.getelementptr %[[OUT]][0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i64, array<2 x i64>)>
// CHECK-NEXT:    llvm.store %[[WHOLE]], %[[R]] : !llvm.array<2 x i64>, !llvm.ptr
// CHECK-NEXT:    llvm.return{{$}}
llvm.func @kiln.fn.branches(%c: i1, %x: i32, %y: i64) -> !s {
  %0 = llvm.mlir.poison : !s
  llvm.cond_br %c, ^then, ^else
^then:
  %1 = llvm.insertvalue %x, %0[0] : !s
  %2 = llvm.insertvalue %y, %1[1] : !s
  llvm.return %2 : !s
^else:
  %3 = llvm.insertvalue %y, %0[2, 1] : !s
  llvm.return %3 : !s
}
llvm.func @_mlir_ciface_kiln.fn.branches(%out: !llvm.ptr, %c: i1, %x: i32, %y: i64) {
  %0 = llvm.call @kiln.fn.branches(%c, %x, %y) : (i1, i32, i64) -> !s
  llvm.store %0, %out : !s, !llvm.ptr
  llvm.return
}

// -----

// Left alone: a function whose result is read (not stored whole), one
// stored by a function that is not a C interface wrapper, one stored to
// memory that is not the wrapper's result pointer, and one whose address
// is taken.
!s = !llvm.struct<(i64, i64)>

// CHECK-LABEL: llvm.func @kiln.fn.read() -> !llvm.struct<(i64, i64)>
llvm.func @kiln.fn.read() -> !s {
  %0 = llvm.mlir.poison : !s
  llvm.return %0 : !s
}
// CHECK-LABEL: llvm.func @_mlir_ciface_kiln.fn.read(
// CHECK:         llvm.call @kiln.fn.read() : () -> !llvm.struct<(i64, i64)>
llvm.func @_mlir_ciface_kiln.fn.read(%out: !llvm.ptr) -> i64 {
  %0 = llvm.call @kiln.fn.read() : () -> !s
  %1 = llvm.extractvalue %0[0] : !s
  llvm.return %1 : i64
}

// CHECK-LABEL: llvm.func @kiln.fn.helper() -> !llvm.struct<(i64, i64)>
llvm.func @kiln.fn.helper() -> !s {
  %0 = llvm.mlir.poison : !s
  llvm.return %0 : !s
}
llvm.func @kiln.fn.caller(%out: !llvm.ptr) {
  %0 = llvm.call @kiln.fn.helper() : () -> !s
  llvm.store %0, %out : !s, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @kiln.fn.elsewhere() -> !llvm.struct<(i64, i64)>
llvm.func @kiln.fn.elsewhere() -> !s {
  %0 = llvm.mlir.poison : !s
  llvm.return %0 : !s
}
llvm.func @_mlir_ciface_kiln.fn.elsewhere(%out: !llvm.ptr, %other: !llvm.ptr) {
  %0 = llvm.call @kiln.fn.elsewhere() : () -> !s
  llvm.store %0, %other : !s, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @kiln.fn.taken() -> !llvm.struct<(i64, i64)>
llvm.func @kiln.fn.taken() -> !s {
  %0 = llvm.mlir.poison : !s
  llvm.return %0 : !s
}
llvm.func @_mlir_ciface_kiln.fn.taken(%out: !llvm.ptr) -> !llvm.ptr {
  %0 = llvm.call @kiln.fn.taken() : () -> !s
  llvm.store %0, %out : !s, !llvm.ptr
  %1 = llvm.mlir.addressof @kiln.fn.taken : !llvm.ptr
  llvm.return %1 : !llvm.ptr
}
