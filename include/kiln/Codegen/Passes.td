//===- Passes.td - Executable codegen passes ---------------*- tablegen -*-===//
//
// The executable-codegen phase: each variant lowered to the LLVM dialect by
// its target backend.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_PASSES_TD
#define KILN_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerVariantPass : Pass<"kiln-lower-variant", "::kiln::ExecutableVariantOp"> {
  let summary = "Lower a configured variant with its target backend";
  let description = [{
    Runs the codegen pipeline of the backend named by the variant's
    `#kiln.target`: afterwards the variant's module is in the LLVM dialect
    and its exports compute their workgroup counts. A variant whose module
    already is in the LLVM dialect (lowered by a preprocessing tool, for
    instance), or that has no module (the object cache had its object
    code), is left alone.
  }];
  let statistics = [
    Statistic<"numLowered", "lowered", "Variants lowered by codegen">,
    Statistic<"numSkipped", "skipped",
              "Variants already lowered (preprocessed, or from the cache)">,
  ];
}

#endif // KILN_CODEGEN_PASSES_TD
