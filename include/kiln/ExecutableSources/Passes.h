//===- Passes.h - Executable sources passes ---------------------*- C++ -*-===//
//
// Declares the executable-sources phase and its passes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_EXECUTABLESOURCES_PASSES_H
#define KILN_EXECUTABLESOURCES_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/ExecutableSources/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/ExecutableSources/Passes.h.inc"

/// Adds the executable-sources phase: one variant per target.
void populateExecutableSourcesPasses(mlir::OpPassManager &pm,
                                     const TargetOptions &options);

} // namespace kiln

#endif // KILN_EXECUTABLESOURCES_PASSES_H
