//===- MaterializeTargetVariants.cpp - One variant per target -------------===//
//
// Copies each executable's source into one variant per requested target.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutableSources/Passes.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_MATERIALIZETARGETVARIANTSPASS
#include "kiln/ExecutableSources/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// A variant symbol for `backend`: its name with '-' as '_', made unique.
static std::string getVariantName(StringRef backend, llvm::StringSet<> &used) {
  std::string base = backend.str();
  std::replace(base.begin(), base.end(), '-', '_');
  std::string name = base;
  for (unsigned suffix = 1; !used.insert(name).second; ++suffix)
    name = base + "_" + std::to_string(suffix);
  return name;
}

namespace {
struct MaterializeTargetVariantsPass
    : public kiln::impl::MaterializeTargetVariantsPassBase<
          MaterializeTargetVariantsPass> {
  using MaterializeTargetVariantsPassBase::MaterializeTargetVariantsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    TargetOptions options;
    if (!targets.empty())
      options.backends.assign(targets.begin(), targets.end());
    options.cpu = cpu;
    options.cpuFeatures = cpuFeatures;

    auto resolved = resolveTargets(&getContext(), options);
    if (!resolved) {
      module.emitError() << llvm::toString(resolved.takeError());
      return signalPassFailure();
    }

    // Host code runs on the CPU: it is compiled for the first llvm-cpu
    // target, or for the CPU the options name when no variant targets one.
    TargetAttr hostTarget;
    for (auto &[backend, target] : *resolved)
      if (!hostTarget && backend->getName() == "llvm-cpu")
        hostTarget = target;
    if (!hostTarget) {
      TargetOptions hostOptions = options;
      hostOptions.backends = {"llvm-cpu"};
      auto host = resolveTargets(&getContext(), hostOptions);
      if (!host) {
        module.emitError() << llvm::toString(host.takeError());
        return signalPassFailure();
      }
      hostTarget = host->front().second;
    }
    module->setAttr(KilnDialect::getTargetAttrName(), hostTarget);

    for (auto executable : module.getOps<ExecutableOp>()) {
      if (executable.isTargetForm())
        continue;
      SmallVector<Operation *> source;
      for (Operation &op : executable.getBlock())
        source.push_back(&op);

      llvm::StringSet<> used;
      OpBuilder builder = OpBuilder::atBlockBegin(&executable.getBlock());
      for (auto &[backend, target] : *resolved) {
        auto variant = ExecutableVariantOp::create(
            builder, executable.getLoc(),
            getVariantName(backend->getName(), used), target);
        OpBuilder inner = OpBuilder::atBlockEnd(&variant.getBlock());
        for (Operation *op : source)
          inner.clone(*op);
      }
      for (Operation *op : source)
        op->erase();
    }
  }
};
} // namespace
