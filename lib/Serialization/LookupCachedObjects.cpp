//===- LookupCachedObjects.cpp - Unchanged executables from the cache -----===//
//
// Before codegen, each executable is keyed by what determines its object
// code; one the object cache has skips codegen and LLVM both.
//
//===----------------------------------------------------------------------===//

#include "kiln/Cache/FileCache.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Plugin/BuildInfo.h"
#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Serialization/Passes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
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
/// A cache entry ready to use: its exports parsed.
struct UsableEntry : CachedObject {
  std::unique_ptr<Block> parsedExports;
};
} // namespace

/// Entry `key` of `cache` when it is there and fits `variant` of
/// `executable`: its exports parse and are the variant's, and its object
/// is an x86-64 relocatable object that defines each export's kernel as a
/// function. Anything else is a miss, with a warning that says why.
static std::optional<UsableEntry> readEntry(const FileCache &cache,
                                            StringRef key,
                                            ExecutableOp executable,
                                            ExecutableVariantOp variant) {
  FileCache::Lookup lookup = cache.read(key);
  if (!lookup.problem.empty())
    executable.emitWarning() << lookup.problem;
  if (!lookup.content)
    return std::nullopt;
  auto reject = [&](const Twine &why) -> std::optional<UsableEntry> {
    executable.emitWarning()
        << "object cache entry '" << cache.getEntryPath(key)
        << "' is not used: " << why << "; it is compiled again";
    return std::nullopt;
  };
  std::optional<CachedObject> cached =
      CachedObject::deserialize(*lookup.content);
  if (!cached)
    return reject("it is not an object cache entry of this version");
  UsableEntry entry;
  static_cast<CachedObject &>(entry) = std::move(*cached);
  // The exports as codegen left them (their workgroup counts), which
  // replace the variant's; parse errors are the entry's, not the program's.
  MLIRContext *context = executable.getContext();
  entry.parsedExports = std::make_unique<Block>();
  std::string errors;
  LogicalResult parsed = failure();
  {
    llvm::raw_string_ostream os(errors);
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      os << diag.str();
      return success();
    });
    parsed = parseSourceString(entry.exports, entry.parsedExports.get(),
                               ParserConfig(context,
                                            /*verifyAfterParse=*/false));
  }
  if (failed(parsed))
    return reject("its exports do not parse (" + errors + ")");
  llvm::StringSet<> expected, found;
  for (auto exportOp : variant.getExportOps())
    expected.insert(exportOp.getSymName());
  for (Operation &op : *entry.parsedExports) {
    auto exportOp = dyn_cast<ExecutableExportOp>(op);
    if (!exportOp || !expected.contains(exportOp.getSymName()) ||
        !found.insert(exportOp.getSymName()).second)
      return reject("its exports are not the executable's");
  }
  if (found.size() != expected.size())
    return reject("its exports are not the executable's");
  std::vector<std::string> kernels;
  for (const auto &symbol : getKernelSymbols(executable, variant))
    kernels.push_back(symbol.getValue());
  if (llvm::Error error = checkObjectDefinesFunctions(
          llvm::MemoryBufferRef(entry.object, "cached object"), "its object",
          kernels))
    return reject(llvm::toString(std::move(error)));
  return entry;
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
    std::optional<UsableEntry> entry =
        readEntry(*cache, key, executable, variant);
    if (auto *statistics = getSessionState<CompileStatistics>(&getContext()))
      statistics->recordCacheLookup(executable.getSymName(), entry.has_value());
    MLIRContext *context = &getContext();
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
    for (Operation &op : llvm::make_early_inc_range(*entry->parsedExports))
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
