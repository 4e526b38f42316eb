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

#endif // KILN_RUNTIMECHECKS_PASSES_TD
