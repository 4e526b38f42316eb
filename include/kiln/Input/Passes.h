//===- Passes.h - Input phase passes ----------------------------*- C++ -*-===//
//
// Declares the input phase: input conversions (a registry plugins extend)
// and the legality check that ends the phase.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_INPUT_PASSES_H
#define KILN_INPUT_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <string>

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Input/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Input/Passes.h.inc"

/// A conversion from an input dialect to linalg on tensors.
struct InputConversion {
  /// The name `input-type` selects it by, such as "tosa".
  std::string name;
  /// True when `module` uses this conversion's input dialect.
  std::function<bool(mlir::ModuleOp module)> detect;
  /// Adds the conversion's passes to a module-level pass manager.
  std::function<void(mlir::OpPassManager &pm)> buildPipeline;
};

/// Registers `conversion` for every later compile in this process; one of
/// the same name is replaced.
void registerInputConversion(InputConversion conversion);

/// True when a conversion called `name` is registered.
bool isInputConversionRegistered(llvm::StringRef name);

/// Removes the conversion called `name` (a plugin's, when its session
/// ends).
void unregisterInputConversion(llvm::StringRef name);

/// Registers Kiln's built-in conversions (tosa). Idempotent.
void registerBuiltinInputConversions();

/// The options of the input phase.
struct InputOptions {
  std::string inputType = "auto";
};

/// Adds the input phase: input conversion, cleanup and the legality check.
void populateInputPasses(mlir::OpPassManager &pm, const InputOptions &options);

} // namespace kiln

#endif // KILN_INPUT_PASSES_H
