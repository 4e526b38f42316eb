//===- Passes.td - Serialization passes --------------------*- tablegen -*-===//
//
// The serialization phase: one LLVM-dialect module with host code and
// kernels, written as a native shared object.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SERIALIZATION_PASSES_TD
#define KILN_SERIALIZATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LinkExecutablesPass : Pass<"kiln-link-executables", "mlir::ModuleOp"> {
  let summary = "Move every executable's kernels into the host module";
  let description = [{
    Takes each executable's llvm-cpu variant (there must be exactly one),
    moves its kernels into the host module under the names host code
    launches them by, renames its other symbols so that executables cannot
    clash, and erases the executable. Afterwards the module is one LLVM
    dialect module, ready for translation to LLVM IR.
  }];
}

#endif // KILN_SERIALIZATION_PASSES_TD
