//===- Passes.td - Executable configuration passes ---------*- tablegen -*-===//
//
// The executable-configurations phase: every root op gets a lowering
// configuration from its variant's target backend.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONFIGURATION_PASSES_TD
#define KILN_CONFIGURATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConfigureVariantPass
    : Pass<"kiln-configure-variant", "::kiln::ExecutableVariantOp"> {
  let summary = "Configure a variant with its target backend's pipeline";
  let description = [{
    Runs the configuration pipeline of the backend named by the variant's
    `#kiln.target` on the variant. Afterwards every dispatch root carries a
    `kiln.lowering_config`; ops that already carry one keep it.
  }];
}

#endif // KILN_CONFIGURATION_PASSES_TD
