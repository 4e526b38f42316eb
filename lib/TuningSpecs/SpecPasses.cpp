//===- SpecPasses.cpp - Verify and link tuning specs in kiln-opt ----------===//
//
// --kiln-verify-tuning-spec checks the input is a spec;
// --kiln-link-tuning-specs links the specs nested in the input into one.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/TuningSpecs/Passes.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"

namespace kiln {
#define GEN_PASS_DEF_VERIFYTUNINGSPECPASS
#define GEN_PASS_DEF_LINKTUNINGSPECSPASS
#include "kiln/TuningSpecs/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct VerifyTuningSpecPass
    : public kiln::impl::VerifyTuningSpecPassBase<VerifyTuningSpecPass> {
  void runOnOperation() override {
    if (failed(verifyTuningSpec(getOperation())))
      signalPassFailure();
  }
};

/// What a nested spec is called in the linked library.
static std::string getSourceName(ModuleOp spec, unsigned index) {
  if (std::optional<StringRef> name = spec.getSymName())
    return name->str();
  if (auto fileLoc = dyn_cast<FileLineColLoc>(spec.getLoc()))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()))
        .str();
  return "spec " + std::to_string(index);
}

struct LinkTuningSpecsPass
    : public kiln::impl::LinkTuningSpecsPassBase<LinkTuningSpecsPass> {
  void runOnOperation() override {
    ModuleOp root = getOperation();
    std::vector<TuningSpecInput> inputs;
    for (Operation &op : llvm::make_early_inc_range(root.getOps())) {
      auto spec = dyn_cast<ModuleOp>(op);
      if (!spec) {
        op.emitError() << "is not a tuning spec; the input of "
                          "--kiln-link-tuning-specs holds nested "
                          "builtin.modules only";
        return signalPassFailure();
      }
      std::string source = getSourceName(spec, inputs.size());
      spec->remove();
      inputs.push_back({source, OwningOpRef<ModuleOp>(spec)});
    }
    FailureOr<OwningOpRef<ModuleOp>> library =
        linkTuningSpecs(&getContext(), std::move(inputs));
    if (failed(library))
      return signalPassFailure();
    for (Operation &op :
         llvm::make_early_inc_range((*library)->getBody()->getOperations()))
      op.moveBefore(root.getBody(), root.getBody()->end());
    for (NamedAttribute attr : (**library)->getDiscardableAttrs())
      root->setAttr(attr.getName(), attr.getValue());
  }
};
} // namespace
