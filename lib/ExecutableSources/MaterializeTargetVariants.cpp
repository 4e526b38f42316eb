//===- MaterializeTargetVariants.cpp - One variant per target -------------===//
//
// Copies each executable's source into one variant per requested target.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutableSources/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_MATERIALIZETARGETVARIANTSPASS
#include "kiln/ExecutableSources/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// A variant symbol for `backend` and `target`: the backend's name, with
/// the CPU's when the options name several CPUs, each '-' or '.' as '_',
/// made unique.
static std::string getVariantName(StringRef backend, TargetAttr target,
                                  bool withCPU, llvm::StringSet<> &used) {
  std::string base = backend.str();
  if (withCPU && !target.getCPU().empty())
    base += "_" + target.getCPU().str();
  for (char &c : base)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  std::string name = base;
  for (unsigned suffix = 1; !used.insert(name).second; ++suffix)
    name = base + "_" + std::to_string(suffix);
  return name;
}

/// The `+name` items of a comma-separated feature list.
static llvm::SmallVector<StringRef> getEnabledFeatures(StringRef features) {
  llvm::SmallVector<StringRef> items, enabled;
  features.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items)
    if (item.consume_front("+"))
      enabled.push_back(item);
  return enabled;
}

/// Host code runs on whichever CPU loads the module: the target of the one
/// llvm-cpu variant, or, with several, the generic x86-64 CPU with the
/// features every one of them has.
static TargetAttr getCommonHostTarget(ArrayRef<TargetAttr> cpuTargets) {
  if (cpuTargets.size() == 1)
    return cpuTargets.front();
  llvm::SmallVector<StringRef> common =
      getEnabledFeatures(cpuTargets.front().getCPUFeatures());
  for (TargetAttr target : cpuTargets.drop_front()) {
    llvm::SmallVector<StringRef> enabled =
        getEnabledFeatures(target.getCPUFeatures());
    llvm::erase_if(common, [&](StringRef feature) {
      return !llvm::is_contained(enabled, feature);
    });
  }
  MLIRContext *context = cpuTargets.front().getContext();
  Builder b(context);
  std::string features = llvm::join(
      llvm::map_range(common, [](StringRef f) { return "+" + f.str(); }), ",");
  auto config = b.getDictionaryAttr({
      b.getNamedAttr("cpu", b.getStringAttr("x86-64")),
      b.getNamedAttr("cpu_features", b.getStringAttr(features)),
      b.getNamedAttr("triple", b.getStringAttr(cpuTargets.front().getTriple())),
  });
  return TargetAttr::get(context, cpuTargets.front().getBackend(), config);
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
    if (!cpus.empty())
      options.cpus.assign(cpus.begin(), cpus.end());
    options.cpuFeatures = cpuFeatures;

    auto resolved = resolveTargets(&getContext(), options);
    if (!resolved) {
      module.emitError() << llvm::toString(resolved.takeError());
      return signalPassFailure();
    }

    // Host code is compiled for the llvm-cpu variants' CPUs, or for the
    // CPUs the options name when no variant targets llvm-cpu.
    SmallVector<TargetAttr> cpuTargets;
    for (auto &[backend, target] : *resolved)
      if (backend->getName() == "llvm-cpu")
        cpuTargets.push_back(target);
    if (cpuTargets.empty()) {
      TargetOptions hostOptions = options;
      hostOptions.backends = {"llvm-cpu"};
      auto host = resolveTargets(&getContext(), hostOptions);
      if (!host) {
        module.emitError() << llvm::toString(host.takeError());
        return signalPassFailure();
      }
      for (auto &[backend, target] : *host)
        cpuTargets.push_back(target);
    }
    module->setAttr(KilnDialect::getTargetAttrName(),
                    getCommonHostTarget(cpuTargets));
    SmallVector<Attribute> variantTargets;
    for (auto &[backend, target] : *resolved)
      variantTargets.push_back(target);
    module->setAttr(KilnDialect::getVariantTargetsAttrName(),
                    ArrayAttr::get(&getContext(), variantTargets));

    bool withCPU = options.cpus.size() > 1;
    for (auto executable : module.getOps<ExecutableOp>()) {
      if (executable.isTargetForm())
        continue;
      SmallVector<Operation *> source;
      for (Operation &op : executable.getBlock())
        source.push_back(&op);
      // What a source executable says of all its variants: the objects they
      // link and the extension functions they call (external dispatches).
      auto objects = executable->getAttrOfType<ArrayAttr>(
          KilnDialect::getObjectsAttrName());
      auto externs = executable->getAttrOfType<ArrayAttr>(
          KilnDialect::getExternsAttrName());
      executable->removeAttr(KilnDialect::getObjectsAttrName());
      executable->removeAttr(KilnDialect::getExternsAttrName());

      llvm::StringSet<> used;
      OpBuilder builder = OpBuilder::atBlockBegin(&executable.getBlock());
      for (auto &[backend, target] : *resolved) {
        auto variant = ExecutableVariantOp::create(
            builder, executable.getLoc(),
            getVariantName(backend->getName(), target, withCPU, used), target);
        if (objects)
          variant.setObjectsAttr(objects);
        if (externs)
          variant->setAttr(KilnDialect::getExternsAttrName(), externs);
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
