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

def VerifyLoweringConfigsPass
    : Pass<"kiln-verify-lowering-configs", "::kiln::ExecutableVariantOp"> {
  let summary = "Check every lowering config against what codegen can honor";
  let description = [{
    The one check of every `kiln.lowering_config` of a configured variant,
    whoever wrote it (the input program, a tuning spec, a tuning library or
    a heuristic): the root has loops, every level has one size per loop,
    and the target backend can honor the sizes (for llvm-cpu: a known
    pipeline, register tiles and vectors of at most 4096 elements, vectors
    that cover the register tile). A config that fails is an error at its
    op, with a note saying where the config came from. Variants a plugin
    claimed follow the plugin's rules, and compiled ones have no configs.
  }];
}

#endif // KILN_CONFIGURATION_PASSES_TD
