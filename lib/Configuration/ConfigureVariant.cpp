//===- ConfigureVariant.cpp - Run a backend's configuration pipeline ------===//
//
// Hands each variant to the configuration pipeline of its target backend.
//
//===----------------------------------------------------------------------===//

#include "kiln/Configuration/Passes.h"
#include "kiln/Target/TargetBackend.h"

namespace kiln {
#define GEN_PASS_DEF_CONFIGUREVARIANTPASS
#include "kiln/Configuration/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct ConfigureVariantPass
    : public kiln::impl::ConfigureVariantPassBase<ConfigureVariantPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    // The built-in backends'; a session loads its plugins' backends'
    // dialects into its context when it attaches them.
    TargetRegistry::getBuiltin().getDependentDialects(registry);
  }

  void runOnOperation() override {
    ExecutableVariantOp variant = getOperation();
    // Compiled already (by a preprocessing tool): nothing to configure.
    if (isLoweredToLLVM(variant))
      return;
    // A plugin may claim the variant and configure it its own way.
    if (VariantClaims *claims = getVariantClaims(&getContext())) {
      if (std::optional<VariantClaim> claim = claims->claim(variant)) {
        variant->setAttr(KilnDialect::getClaimedByAttrName(),
                         StringAttr::get(&getContext(), claim->claimant));
        OpPassManager pm(ExecutableVariantOp::getOperationName());
        claim->buildConfigurationPipeline(pm);
        if (failed(runPipeline(pm, variant)))
          return signalPassFailure();
        return;
      }
    }
    StringRef backendName = variant.getTarget().getBackend().getValue();
    auto backend = TargetRegistry::get(&getContext()).lookup(backendName);
    if (!backend) {
      variant.emitError() << llvm::toString(backend.takeError());
      return signalPassFailure();
    }
    OpPassManager pm(ExecutableVariantOp::getOperationName());
    (*backend)->buildConfigurationPipeline(pm);
    if (failed(runPipeline(pm, variant)))
      return signalPassFailure();
  }
};
} // namespace
