//===- Passes.td - Run-time checks -------------------------*- tablegen -*-===//
//
// Sizes, indices and divisors the compiler cannot check, checked when the
// program runs: before anything reads or writes with them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIMECHECKS_PASSES_TD
#define KILN_RUNTIMECHECKS_PASSES_TD

include "mlir/Pass/PassBase.td"

def CheckDynamicShapesPass : Pass<"kiln-check-dynamic-shapes"> {
  let summary = "Check at run time the sizes that ops require to agree";
  let description = [{
    Linalg and tensor ops require relations between sizes that their
    verifiers check only when the sizes are static: the operands of a
    linalg op that share a loop must have the same size along it (an
    elementwise add of `tensor<?xf32>` and `tensor<?xf32>`, the K of a
    matmul), windows must fit in their input, a `tensor.cast` to a static
    size must meet that size, an `expand_shape` or a `tensor.reshape` must
    keep the number of elements, slices must lie inside their tensor, a
    concatenation's other dimensions must agree, an index the host reads
    or writes with must be inside its tensor. Where a size is dynamic, the
    op would otherwise read or write past a buffer or compute over the
    wrong size.

    This pass adds a `kiln.assert` for each such relation that involves a
    dynamic size, with a message that names the op (the ONNX node), the
    operands (a function input by its index and name) and both sizes; the
    call then ends with that error instead. Checks are placed as early as
    their sizes are known, so that those of a function's inputs run when
    the call begins; checks that fold to true (sizes computed from each
    other) go away.

    Before:
    ```mlir
    %r = linalg.generic {...} ins(%x, %y : tensor<?xf32>, tensor<?xf32>)
        outs(%e : tensor<?xf32>) {...}
    ```
    After:
    ```mlir
    %n = tensor.dim %x, %c0 : tensor<?xf32>
    %m = tensor.dim %y, %c0 : tensor<?xf32>
    %same = arith.cmpi eq, %m, %n : index
    kiln.assert %same, "'linalg.generic': dimension 0 of input 1 is {0}, but dimension 0 of input 0 is {1}; they must be equal" (%m, %n : index, index)
    %r = linalg.generic ...
    ```
  }];
  let dependentDialects = [
    "kiln::KilnDialect",
    "mlir::arith::ArithDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def GuardIndicesAndDivisorsPass : Pass<"kiln-guard-indices-and-divisors"> {
  let summary = "Make data-dependent reads and integer divisions safe, and check them at run time";
  let description = [{
    Two things in the body of a linalg op can go wrong with values only the
    run knows: a `tensor.extract` at an index computed from data (a gather)
    can read outside its tensor, and an integer division or remainder can
    divide by zero or divide the smallest integer by -1 (SIGFPE, which kills
    the process that called the module). Masked vectorization divides in
    padding lanes too, so even a division whose operands are all valid can
    trap.

    This pass makes each of them safe where it happens: an index out of
    range reads element 0, a bad divisor is replaced by 1. Then it checks
    them before the op runs, so that the call ends with an error instead of
    a result computed with those stand-ins:

    - a division whose operands both come from the host: a `kiln.assert`
      on them;
    - otherwise a `linalg.generic` over the op's inputs, on the loops the
      conditions depend on (an embedding lookup's check reads the indices,
      not the table), that counts the bad reads (and the range of the
      indices) and the bad divisions, and a `kiln.assert` on the counts
      whose message names the op, the tensor and dimension read, its size,
      and the counts.

    Only indices computed from data (an operand's elements or another read)
    are guarded; indices a lowering computes from loop indices and host
    values are trusted. A read marked `kiln.checked_indices` was checked by
    its front end (ONNX's Gather, with ONNX's negative indices in its
    message) and is left alone. Integer divisions outside linalg ops (shape
    arithmetic on the host) get a safe divisor and a `kiln.assert`.

    Before:
    ```mlir
    %r = linalg.generic {...} ins(%x, %y : tensor<?xi32>, tensor<?xi32>) ... {
    ^bb0(%a: i32, %b: i32, %o: i32):
      %q = arith.divsi %a, %b : i32
      linalg.yield %q : i32
    }
    ```
    After:
    ```mlir
    %counts:2 = linalg.generic {... iterator_types = ["reduction"]}
        ins(%x, %y : ...) outs(%zero0, %zero1 : tensor<i64>, tensor<i64>) {...}
    ...
    kiln.assert %ok, "'linalg.generic': {0} integer divisions by zero and {1} of the smallest integer by -1" (...)
    %r = linalg.generic {...} ins(%x, %y : ...) ... {
    ^bb0(%a: i32, %b: i32, %o: i32):
      %bad = ...
      %safe = arith.select %bad, %c1, %b : i32
      %q = arith.divsi %a, %safe : i32
      linalg.yield %q : i32
    }
    ```
  }];
  let dependentDialects = [
    "kiln::KilnDialect",
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // KILN_RUNTIMECHECKS_PASSES_TD
