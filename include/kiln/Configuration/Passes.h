//===- Passes.h - Executable configuration passes ---------------*- C++ -*-===//
//
// Declares the executable-configurations phase.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONFIGURATION_PASSES_H
#define KILN_CONFIGURATION_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Configuration/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Configuration/Passes.h.inc"

/// Adds the executable-configurations phase to a module pass manager.
void populateConfigurationPasses(mlir::OpPassManager &pm);

} // namespace kiln

#endif // KILN_CONFIGURATION_PASSES_H
