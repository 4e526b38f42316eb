//===- VerifyLoweringConfigs.cpp - One check for every lowering config ----===//
//
// After configuration, every kiln.lowering_config of a variant its backend
// configured goes through the backend's check, whoever wrote it: a config in
// the input program is held to the same limits as one a tuning spec sets.
//
//===----------------------------------------------------------------------===//

#include "kiln/Configuration/Passes.h"
#include "kiln/Target/TargetBackend.h"

namespace kiln {
#define GEN_PASS_DEF_VERIFYLOWERINGCONFIGSPASS
#include "kiln/Configuration/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Where the config on `op` came from, for the note under an error.
static std::string describeOrigin(Operation *op) {
  auto by =
      op->getAttrOfType<DictionaryAttr>(KilnDialect::getConfiguredByAttrName());
  if (by) {
    if (auto spec = by.getAs<StringAttr>("spec")) {
      std::string origin = "set by the tuning spec " + spec.getValue().str();
      if (auto location = by.getAs<StringAttr>("location"))
        origin += " at " + location.getValue().str();
      return origin;
    }
    if (auto heuristic = by.getAs<StringAttr>("heuristic"))
      return "chosen by the " + heuristic.getValue().str() +
             " heuristic (a bug in Kiln: please report it)";
  }
  return "written in the input program";
}

namespace {
struct VerifyLoweringConfigsPass
    : public kiln::impl::VerifyLoweringConfigsPassBase<
          VerifyLoweringConfigsPass> {
  void runOnOperation() override {
    ExecutableVariantOp variant = getOperation();
    if (variant->hasAttr(KilnDialect::getClaimedByAttrName()) ||
        isLoweredToLLVM(variant))
      return;
    StringRef configName = KilnDialect::getLoweringConfigAttrName();
    bool failed = false;
    variant.walk([&](Operation *op) {
      auto config = op->getAttrOfType<LoweringConfigAttr>(configName);
      if (!config)
        return;
      auto emitError = [&]() {
        InFlightDiagnostic diag = op->emitError()
                                  << "code generation cannot honor the "
                                     "lowering config "
                                  << config << ": ";
        diag.attachNote() << "the config was " << describeOrigin(op);
        return diag;
      };
      failed |=
          mlir::failed(verifyLoweringConfig(op, config, variant, emitError));
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
