//===- SerializeExecutables.cpp - Each executable to its own object -------===//
//
// Compiles every executable's kernels to an object of their own, executables
// in parallel, so that LLVM's time scales with the cores and a changed
// executable is the only one to recompile (LookupCachedObjects.cpp).
//
//===----------------------------------------------------------------------===//

#include "kiln/Cache/FileCache.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Instrumentation/CompileCancellation.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Serialization/Passes.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln {
#define GEN_PASS_DEF_SERIALIZEEXECUTABLESPASS
#include "kiln/Serialization/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct SerializeExecutablesPass
    : public kiln::impl::SerializeExecutablesPassBase<
          SerializeExecutablesPass> {
  using Base::Base;

  void runOnOperation() override {
    ExecutableOp executable = getOperation();
    for (auto variant : executable.getVariantOps())
      if (failed(serialize(executable, variant)))
        return signalPassFailure();
  }

  LogicalResult serialize(ExecutableOp executable,
                          ExecutableVariantOp variant) {
    if (isCompileCancelled(&getContext()))
      return variant.emitError() << "the compile was interrupted";
    auto *statistics = getSessionState<CompileStatistics>(&getContext());
    std::string name = executable.getSymName().str();
    if (isMultiVariant(executable))
      name += "_" + variant.getSymName().str();
    if (variant->hasAttr(KilnDialect::getObjectCodeAttrName())) {
      // From the object cache.
      ++numCached;
      if (statistics)
        statistics->recordObject(name, -1);
      return success();
    }
    auto backend = lookupBackend(&getContext(), variant.getTarget());
    if (!backend)
      return variant.emitError() << llvm::toString(backend.takeError());
    KernelSymbols symbols = getKernelSymbols(executable, variant);

    CompileStatistics::Clock::time_point start =
        CompileStatistics::Clock::now();
    llvm::Expected<std::string> object =
        (*backend)->serializeVariant(variant, symbols);
    if (!object)
      return variant.emitError() << llvm::toString(object.takeError());
    if (statistics)
      statistics->recordObject(name, secondsSince(start));
    ++numObjects;
    numObjectBytes += object->size();

    if (auto key = variant->getAttrOfType<StringAttr>(
            KilnDialect::getObjectCacheKeyAttrName())) {
      // Not a variant that calls runtime extensions from its kernels: codegen
      // lists them on the variant (kiln.externs), and a cache hit skips
      // codegen, so the module would lack them.
      ModuleOp kernels = variant.getInnerModule();
      if (kernels && !variant->hasAttr(KilnDialect::getExternsAttrName()))
        storeInCache(key.getValue(), variant, kernels, symbols, *object);
      variant->removeAttr(KilnDialect::getObjectCacheKeyAttrName());
    }
    variant->setAttr(
        KilnDialect::getObjectCodeAttrName(),
        makeObjectCodeAttr(&getContext(), "kiln_object_" + name, *object));
    // The kernels are in the object now.
    if (ModuleOp kernels = variant.getInnerModule())
      kernels.erase();
    return success();
  }

  /// Keeps `object` under `key`, with the workgroup scratch each export's
  /// kernel needs (the host code of a compile that hits reads it there).
  void storeInCache(StringRef key, ExecutableVariantOp variant,
                    ModuleOp kernels, const KernelSymbols &symbols,
                    StringRef object) {
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
      Operation *kernel =
          kernelTable.lookup(symbols.lookup(exportOp.getSymName()));
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
