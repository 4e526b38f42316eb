//===- Passes.h - Executable codegen passes ---------------------*- C++ -*-===//
//
// Declares the executable-codegen phase.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_PASSES_H
#define KILN_CODEGEN_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Codegen/Passes.h.inc"

/// Adds the executable-codegen phase to a module pass manager.
void populateCodegenPasses(mlir::OpPassManager &pm);

} // namespace kiln

#endif // KILN_CODEGEN_PASSES_H
