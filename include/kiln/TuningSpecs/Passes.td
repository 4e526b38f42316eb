//===- Passes.td - Tuning spec passes ----------------------*- tablegen -*-===//
//
// Passes for spec authors and tuners, on spec files given to kiln-opt.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNINGSPECS_PASSES_TD
#define KILN_TUNINGSPECS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifyTuningSpecPass
    : Pass<"kiln-verify-tuning-spec", "::mlir::ModuleOp"> {
  let summary = "Check that the input is a tuning spec Kiln can use";
  let description = [{
    Fails, with an error at the offending op, unless the input module is a
    tuning spec: `kiln.tuning_spec_version` is one this Kiln reads, one
    `transform.named_sequence` is tagged `kiln.tuning_spec_entrypoint` and
    has the signature `(!transform.any_op {transform.consumed}) ->
    !transform.any_op`, and every op verifies (the parser checked that).
    `kiln-opt spec.mlir --kiln-verify-tuning-spec -o /dev/null`.
  }];
}

def LinkTuningSpecsPass
    : Pass<"kiln-link-tuning-specs", "::mlir::ModuleOp"> {
  let summary = "Link the tuning specs nested in the input into one";
  let description = [{
    The input module holds tuning specs as nested `builtin.module`s, highest
    precedence first; the pass replaces them with the linked library: every
    spec's symbols (renamed where they clash), each named sequence tagged
    with `kiln.tuning_spec_source` (the nested module's name, or its file),
    and one entry point that includes each spec's entry in order. The
    first spec that configures an op wins.
  }];
}

#endif // KILN_TUNINGSPECS_PASSES_TD
