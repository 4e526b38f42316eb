//===- ConvertInput.cpp - Run the input conversions a module needs -------===//
//
// Registries of input conversions (built-in and per session) and the pass
// that picks and runs them.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Input/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTINPUTPASS
#include "kiln/Input/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::InputConversionRegistry)

InputConversionRegistry &InputConversionRegistry::getBuiltin() {
  static InputConversionRegistry registry;
  return registry;
}

const InputConversionRegistry &
InputConversionRegistry::get(MLIRContext *context) {
  if (const InputConversionRegistry *registry =
          getSessionState<InputConversionRegistry>(context))
    return *registry;
  return getBuiltin();
}

llvm::Error InputConversionRegistry::add(InputConversion conversion) {
  for (const InputConversion *existing : getConversions())
    if (existing->name == conversion.name)
      return llvm::createStringError("input conversion '" + conversion.name +
                                     "' exists already");
  conversions.push_back(std::move(conversion));
  return llvm::Error::success();
}

std::vector<const InputConversion *>
InputConversionRegistry::getConversions() const {
  std::vector<const InputConversion *> all =
      parent ? parent->getConversions()
             : std::vector<const InputConversion *>();
  for (const InputConversion &conversion : conversions)
    all.push_back(&conversion);
  return all;
}

void InputConversionRegistry::getDependentDialects(
    DialectRegistry &registry) const {
  for (const InputConversion *conversion : getConversions()) {
    OpPassManager pm(ModuleOp::getOperationName());
    conversion->buildPipeline(pm);
    pm.getDependentDialects(registry);
  }
}

namespace {
struct ConvertInputPass
    : public kiln::impl::ConvertInputPassBase<ConvertInputPass> {
  using ConvertInputPassBase::ConvertInputPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // The built-in conversions'; a session loads its plugins' conversions'
    // dialects into its context when it attaches them.
    InputConversionRegistry::getBuiltin().getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (inputType == "none")
      return;

    std::vector<const InputConversion *> conversions =
        InputConversionRegistry::get(&getContext()).getConversions();
    SmallVector<const InputConversion *> selected;
    for (const InputConversion *conversion : conversions) {
      if (inputType == "auto" ? conversion->detect(module)
                              : conversion->name == inputType)
        selected.push_back(conversion);
    }
    if (selected.empty() && inputType != "auto") {
      SmallVector<std::string> names = {"auto", "none"};
      for (const InputConversion *conversion : conversions)
        names.push_back(conversion->name);
      module.emitError() << "unknown input type '" << inputType
                         << "'; known input types: " << llvm::join(names, ", ");
      return signalPassFailure();
    }

    for (const InputConversion *conversion : selected) {
      OpPassManager pm(ModuleOp::getOperationName());
      conversion->buildPipeline(pm);
      if (failed(runPipeline(pm, module)))
        return signalPassFailure();
    }
  }
};
} // namespace
