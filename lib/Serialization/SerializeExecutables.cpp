//===- SerializeExecutables.cpp - Each executable to its own object -------===//
//
// Compiles every executable's kernels to an object of their own, executables
// in parallel, so that LLVM's time scales with the cores and a changed
// executable is the only one to recompile (LookupCachedObjects.cpp).
//
//===----------------------------------------------------------------------===//

#include "kiln/Cache/FileCache.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Serialization/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln {
#define GEN_PASS_DEF_SERIALIZEEXECUTABLESPASS
#include "kiln/Serialization/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The executable's one llvm-cpu variant, or an error on it.
static FailureOr<ExecutableVariantOp> getSerializedVariant(ExecutableOp exe) {
  SmallVector<ExecutableVariantOp> variants;
  for (auto variant : exe.getVariantOps()) {
    StringRef backend = variant.getTarget().getBackend().getValue();
    if (backend != "llvm-cpu")
      return variant.emitError()
             << "targets '" << backend
             << "', which Kiln cannot write into a module; only llvm-cpu "
                "variants are serialized";
    variants.push_back(variant);
  }
  if (variants.size() != 1)
    return exe.emitError() << "has " << variants.size()
                           << " llvm-cpu variants; serialization needs "
                              "exactly one";
  return variants.front();
}

/// Names the kernels as host code launches them, hidden from the module's
/// users; makes everything else the executable defines internal to its
/// object.
static LogicalResult prepareSymbols(ExecutableOp executable,
                                    ExecutableVariantOp variant,
                                    ModuleOp kernels) {
  SymbolTable kernelTable(kernels);
  llvm::SmallPtrSet<Operation *, 8> kernelOps;
  for (auto exportOp : variant.getExportOps()) {
    Operation *kernel = kernelTable.lookup(exportOp.getSymName());
    auto func = dyn_cast_or_null<LLVM::LLVMFuncOp>(kernel);
    if (!func || func.isExternal())
      return exportOp.emitError() << "has no kernel to link";
    auto newName = StringAttr::get(
        kernels.getContext(),
        getKernelSymbolName(SymbolRefAttr::get(
            executable.getSymNameAttr(),
            {FlatSymbolRefAttr::get(exportOp.getSymNameAttr())})));
    if (failed(SymbolTable::replaceAllSymbolUses(kernel, newName, kernels)))
      return kernel->emitError() << "could not be renamed";
    kernelTable.remove(kernel);
    SymbolTable::setSymbolName(kernel, newName);
    kernelTable.insert(kernel);
    func.setLinkage(LLVM::Linkage::External);
    func.setVisibility_(LLVM::Visibility::Hidden);
    kernelOps.insert(kernel);
  }
  for (Operation &op : kernels.getBody()->getOperations()) {
    if (kernelOps.contains(&op))
      continue;
    if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
      if (!func.isExternal())
        func.setLinkage(LLVM::Linkage::Internal);
    } else if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
      // A global without a value is another object's (attached objects).
      if (global.getValueOrNull() || !global.getInitializerRegion().empty())
        global.setLinkage(LLVM::Linkage::Internal);
    }
  }
  return success();
}

namespace {
struct SerializeExecutablesPass
    : public kiln::impl::SerializeExecutablesPassBase<
          SerializeExecutablesPass> {
  using Base::Base;

  void runOnOperation() override {
    ExecutableOp executable = getOperation();
    FailureOr<ExecutableVariantOp> variant = getSerializedVariant(executable);
    if (failed(variant))
      return signalPassFailure();
    auto *statistics = getSessionState<CompileStatistics>(&getContext());
    if ((*variant)->hasAttr(KilnDialect::getObjectCodeAttrName())) {
      // From the object cache.
      ++numCached;
      if (statistics)
        statistics->recordObject(executable.getSymName(), -1);
      return;
    }
    ModuleOp kernels = variant->getInnerModule();
    if (!kernels) {
      variant->emitError() << "has no module to link";
      return signalPassFailure();
    }
    for (Operation &op : kernels.getBody()->getOperations())
      if (!isa<LLVM::LLVMDialect>(op.getDialect())) {
        op.emitError() << "is not in the LLVM dialect; run the "
                          "executable-codegen phase before serializing";
        return signalPassFailure();
      }
    if (failed(prepareSymbols(executable, *variant, kernels)))
      return signalPassFailure();

    CompileStatistics::Clock::time_point start =
        CompileStatistics::Clock::now();
    std::string name = "executable @" + executable.getSymName().str();
    llvm::Expected<std::string> object =
        emitObjectCode(kernels, variant->getTarget(), name, CodeKind::Kernels);
    if (!object) {
      executable.emitError() << llvm::toString(object.takeError());
      return signalPassFailure();
    }
    if (statistics)
      statistics->recordObject(executable.getSymName(), secondsSince(start));
    ++numObjects;
    numObjectBytes += object->size();

    if (auto key = (*variant)->getAttrOfType<StringAttr>(
            KilnDialect::getObjectCacheKeyAttrName())) {
      storeInCache(key.getValue(), *variant, kernels, *object);
      (*variant)->removeAttr(KilnDialect::getObjectCacheKeyAttrName());
    }
    (*variant)->setAttr(
        KilnDialect::getObjectCodeAttrName(),
        makeObjectCodeAttr(&getContext(),
                           "kiln_object_" + executable.getSymName().str(),
                           *object));
    // The kernels are in the object now.
    kernels.erase();
  }

  /// Keeps `object` under `key`, with the workgroup scratch each export's
  /// kernel needs (the host code of a compile that hits reads it there).
  void storeInCache(StringRef key, ExecutableVariantOp variant,
                    ModuleOp kernels, StringRef object) {
    if (objectCache.empty())
      return;
    llvm::Expected<FileCache> cache =
        FileCache::open(objectCache, ".obj", 0, "--kiln-object-cache");
    if (!cache) {
      // Verified when the compile started; a folder gone since costs a miss.
      llvm::consumeError(cache.takeError());
      return;
    }
    CachedObject entry;
    entry.object = object.str();
    SymbolTable kernelTable(kernels);
    for (auto exportOp : variant.getExportOps()) {
      std::string symbol = getKernelSymbolName(SymbolRefAttr::get(
          variant->getParentOfType<ExecutableOp>().getSymNameAttr(),
          {FlatSymbolRefAttr::get(exportOp.getSymNameAttr())}));
      Operation *kernel = kernelTable.lookup(symbol);
      if (auto bytes =
              kernel ? kernel->getAttrOfType<IntegerAttr>(
                           KilnDialect::getWorkgroupScratchBytesAttrName())
                     : nullptr)
        entry.scratchBytes.emplace_back(exportOp.getSymName().str(),
                                        bytes.getValue().getZExtValue());
    }
    llvm::raw_string_ostream exports(entry.exports);
    OpPrintingFlags flags;
    flags.printGenericOpForm().useLocalScope().enableDebugInfo(false);
    for (auto exportOp : variant.getExportOps()) {
      exportOp->print(exports, flags);
      exports << "\n";
    }
    cache->write(key, entry.serialize());
  }
};
} // namespace
