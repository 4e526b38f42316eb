//===- ConvertInput.cpp - Run the input conversions a module needs -------===//
//
// The registry of input conversions and the pass that picks and runs them.
//
//===----------------------------------------------------------------------===//

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

static std::vector<InputConversion> &getRegistry() {
  static std::vector<InputConversion> conversions;
  return conversions;
}

void kiln::registerInputConversion(InputConversion conversion) {
  auto &conversions = getRegistry();
  auto it = llvm::find_if(conversions, [&](const InputConversion &c) {
    return c.name == conversion.name;
  });
  if (it != conversions.end())
    *it = std::move(conversion);
  else
    conversions.push_back(std::move(conversion));
}

bool kiln::isInputConversionRegistered(llvm::StringRef name) {
  return llvm::any_of(getRegistry(),
                      [&](const InputConversion &c) { return c.name == name; });
}

void kiln::unregisterInputConversion(llvm::StringRef name) {
  auto &conversions = getRegistry();
  llvm::erase_if(conversions,
                 [&](const InputConversion &c) { return c.name == name; });
}

namespace {
struct ConvertInputPass
    : public kiln::impl::ConvertInputPassBase<ConvertInputPass> {
  using ConvertInputPassBase::ConvertInputPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    for (const InputConversion &conversion : getRegistry()) {
      OpPassManager pm(ModuleOp::getOperationName());
      conversion.buildPipeline(pm);
      pm.getDependentDialects(registry);
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (inputType == "none")
      return;

    SmallVector<const InputConversion *> selected;
    for (const InputConversion &conversion : getRegistry()) {
      if (inputType == "auto" ? conversion.detect(module)
                              : conversion.name == inputType)
        selected.push_back(&conversion);
    }
    if (selected.empty() && inputType != "auto") {
      SmallVector<std::string> names = {"auto", "none"};
      for (const InputConversion &conversion : getRegistry())
        names.push_back(conversion.name);
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
