//===- Passes.h - Executable configuration passes ---------------*- C++ -*-===//
//
// Declares the executable-configurations phase.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONFIGURATION_PASSES_H
#define KILN_CONFIGURATION_PASSES_H

#include "kiln/Configuration/TuningLibrary.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Configuration/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Configuration/Passes.h.inc"

/// Adds the executable-configurations phase to a module pass manager:
/// tuning specs first (linked, attached, applied), then each variant's
/// backend configures what they left, then the explanation when asked.
void populateConfigurationPasses(mlir::OpPassManager &pm,
                                 const TuningOptions &tuning);

} // namespace kiln

#endif // KILN_CONFIGURATION_PASSES_H
