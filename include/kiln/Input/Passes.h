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
#include "mlir/Support/TypeID.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>

namespace kiln {

class OptionsBinder;

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

/// A set of input conversions, keyed by name. The built-in one holds
/// Kiln's own (tosa), registered at startup; a compile session holds its
/// own, over the built-in one, with its active plugins' conversions, and
/// attaches it to the context it compiles in.
class InputConversionRegistry {
public:
  /// A registry that also holds `parent`'s conversions (which outlives it).
  explicit InputConversionRegistry(
      const InputConversionRegistry *parent = nullptr)
      : parent(parent) {}

  /// Kiln's own conversions. Filled at startup; read-only after.
  static InputConversionRegistry &getBuiltin();

  /// The conversions a compile in `context` sees: its session's, or the
  /// built-in ones outside a session.
  static const InputConversionRegistry &get(mlir::MLIRContext *context);

  /// Adds `conversion`; fails when one of the same name exists here or in
  /// the parent.
  llvm::Error add(InputConversion conversion);

  /// Every conversion, the parent's first, in the order they were added.
  std::vector<const InputConversion *> getConversions() const;

  /// Adds the dialects every conversion's pipeline creates ops of.
  void getDependentDialects(mlir::DialectRegistry &registry) const;

private:
  const InputConversionRegistry *parent;
  std::vector<InputConversion> conversions;
};

/// Registers Kiln's built-in conversions (tosa). Idempotent.
void registerBuiltinInputConversions();

/// The options of the input phase.
struct InputOptions {
  /// --kiln-input-type: "auto", "none" or a conversion's name.
  std::string inputType = "auto";
  /// --kiln-input-shape=INPUT:DxDxD and --kiln-dim=SYMBOL=N, as given
  /// (parsed by parseInputSpecialization, Importer.h's form).
  std::vector<std::string> inputShapes;
  std::vector<std::string> dims;

  /// Binds --kiln-input-type (InputOptions.cpp).
  void bindOptions(OptionsBinder &binder);
};

/// Adds the input phase: input conversion, cleanup and the legality check.
void populateInputPasses(mlir::OpPassManager &pm, const InputOptions &options);

} // namespace kiln

MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::InputConversionRegistry)

#endif // KILN_INPUT_PASSES_H
