//===- Passes.h - Tuning spec passes ----------------------------*- C++ -*-===//
//
// kiln-opt passes for spec authors: verify a spec, link specs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNINGSPECS_PASSES_H
#define KILN_TUNINGSPECS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/TuningSpecs/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/TuningSpecs/Passes.h.inc"

} // namespace kiln

#endif // KILN_TUNINGSPECS_PASSES_H
