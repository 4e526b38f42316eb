//===- LookupCachedObjects.cpp - Unchanged executables from the cache -----===//
//
// Before codegen, each executable is keyed by what determines its object
// code; one the object cache has skips codegen and LLVM both.
//
//===----------------------------------------------------------------------===//

#include "kiln/Cache/FileCache.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Plugin/BuildInfo.h"
#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Serialization/Passes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"

namespace kiln {
#define GEN_PASS_DEF_LOOKUPCACHEDOBJECTSPASS
#include "kiln/Serialization/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The executable as text, every attribute whole and without locations,
/// and the content of the dense resources it uses (the text names them
/// only).
static std::string describeExecutable(ExecutableOp executable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Explicit flags: the process's --mlir-print-* options must not change
  // the key (eliding constants would make different executables equal).
  OpPrintingFlags flags;
  flags.printGenericOpForm()
      .useLocalScope()
      .enableDebugInfo(false)
      .elideLargeElementsAttrs(std::numeric_limits<int64_t>::max())
      .elideLargeResourceString(std::numeric_limits<int64_t>::max());
  executable->print(os, flags);
  llvm::SHA256 resources;
  executable->walk([&](Operation *op) {
    op->getAttrDictionary().walk([&](DenseResourceElementsAttr attr) {
      resources.update(attr.getRawHandle().getKey());
      if (AsmResourceBlob *blob = attr.getRawHandle().getBlob())
        resources.update(llvm::arrayRefFromStringRef(
            StringRef(blob->getData().data(), blob->getData().size())));
      else
        resources.update("<no data>");
    });
  });
  os << "\nresources " << llvm::toHex(resources.final(), true);
  return text;
}

namespace {
struct LookupCachedObjectsPass
    : public kiln::impl::LookupCachedObjectsPassBase<LookupCachedObjectsPass> {
  using Base::Base;

  void runOnOperation() override {
    ExecutableOp executable = getOperation();
    auto variants = llvm::to_vector(executable.getVariantOps());
    // Serialization refuses anything else, and says why.
    if (variants.size() != 1 || !variants.front().getInnerModule())
      return;
    ExecutableVariantOp variant = variants.front();
    llvm::Expected<FileCache> cache =
        FileCache::open(objectCache, ".obj", 0, "--kiln-object-cache");
    if (!cache) {
      executable.emitError() << llvm::toString(cache.takeError());
      return signalPassFailure();
    }
    std::string key =
        FileCache::makeKey({"kiln-object 2", KILN_BUILD_ID, LLVM_VERSION_STRING,
                            fingerprint, describeExecutable(executable)});
    std::optional<CachedObject> entry;
    if (std::optional<std::string> content = cache->read(key))
      entry = CachedObject::deserialize(*content);
    if (auto *statistics = getSessionState<CompileStatistics>(&getContext()))
      statistics->recordCacheLookup(executable.getSymName(), entry.has_value());
    MLIRContext *context = &getContext();
    // The exports as codegen left them (their workgroup counts), which
    // replace the variant's.
    Block exports;
    if (entry && failed(parseSourceString(
                     entry->exports, &exports,
                     ParserConfig(context, /*verifyAfterParse=*/false))))
      entry.reset();
    ++(entry ? numHits : numMisses);
    if (!entry) {
      variant->setAttr(KilnDialect::getObjectCacheKeyAttrName(),
                       StringAttr::get(context, key));
      return;
    }
    for (auto exportOp : llvm::make_early_inc_range(variant.getExportOps()))
      exportOp.erase();
    OpBuilder builder(context);
    builder.setInsertionPointToStart(&variant.getBlock());
    for (Operation &op : llvm::make_early_inc_range(exports))
      op.moveBefore(builder.getInsertionBlock(), builder.getInsertionPoint());
    for (auto exportOp : variant.getExportOps())
      for (const auto &[name, bytes] : entry->scratchBytes)
        if (exportOp.getSymName() == name)
          exportOp->setAttr(
              KilnDialect::getWorkgroupScratchBytesAttrName(),
              IntegerAttr::get(IntegerType::get(context, 64), bytes));
    // Codegen and serialization skip a variant without a module.
    variant.getInnerModule().erase();
    variant->setAttr(
        KilnDialect::getObjectCodeAttrName(),
        makeObjectCodeAttr(context,
                           "kiln_object_" + executable.getSymName().str(),
                           entry->object));
  }
};
} // namespace
