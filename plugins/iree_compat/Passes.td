//===- Passes.td - IREE compatibility passes ---------------*- tablegen -*-===//

#ifndef KILN_COMPAT_IREE_PASSES_TD
#define KILN_COMPAT_IREE_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertIREECompatPass
    : Pass<"kiln-convert-iree-compat", "mlir::ModuleOp"> {
  let summary = "Rewrite the IREE ops of IREE's test programs into Kiln's";
  let description = [{
    Reads programs written for IREE's end-to-end tests:

    - `util.unfoldable_constant` becomes a constant behind a
      `kiln.optimization_barrier`, `util.optimization_barrier` a
      `kiln.optimization_barrier`;
    - `flow.tensor.dynamic_constant` becomes a constant cast to its dynamic
      type behind a barrier, `flow.tensor.tie_shape` its operand;
    - `flow.tensor.bitcast` reinterprets bits: an elementwise `arith.bitcast`
      between types of one width, and otherwise packs or unpacks the
      elements along the innermost dimension (two f4E2M1FN per i8, the first
      in the low bits, as IREE lays them out);
    - `check.expect_*` become `kiln.check` ops, their constants
      `arith.constant`s; element types the runtime does not compare (small
      floats, sub-byte integers, index) are widened exactly first.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
    "::kiln::KilnDialect",
  ];
}

#endif // KILN_COMPAT_IREE_PASSES_TD
