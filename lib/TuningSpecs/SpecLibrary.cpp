//===- SpecLibrary.cpp - Loading, checking and linking tuning specs -------===//
//
// A spec is checked for the format version and its one tagged entry point
// when it is loaded. Linking moves every spec's symbols into one module,
// renaming those that clash, tags each named sequence with the spec it came
// from (the explanation names it), and adds an entry point that includes
// every spec's entry in precedence order.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Files/FilesRead.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace kiln;

static constexpr llvm::StringLiteral kLinkedEntryPoint =
    "__kiln_tuning_library_entry";

llvm::StringRef kiln::getLinkedEntryPointName() { return kLinkedEntryPoint; }

static constexpr llvm::StringLiteral kEntrySignature =
    "(!transform.any_op {transform.consumed}) -> !transform.any_op";

FailureOr<transform::NamedSequenceOp> kiln::verifyTuningSpec(ModuleOp spec) {
  StringRef versionName = KilnDialect::getTuningSpecVersionAttrName();
  auto version = spec->getAttrOfType<IntegerAttr>(versionName);
  if (!version)
    return spec.emitError()
           << "is not a tuning spec: the module has no '" << versionName
           << "' (this Kiln reads format version " << kTuningSpecVersion << ")";
  if (version.getInt() != kTuningSpecVersion)
    return spec.emitError()
           << "is written in tuning spec format version " << version.getInt()
           << "; this Kiln reads version " << kTuningSpecVersion;
  if (!spec->hasAttr(transform::TransformDialect::kWithNamedSequenceAttrName))
    return spec.emitError()
           << "is not a tuning spec: the module lacks the '"
           << transform::TransformDialect::kWithNamedSequenceAttrName
           << "' attribute its named sequences need";

  StringRef entryName = KilnDialect::getTuningSpecEntrypointAttrName();
  SmallVector<transform::NamedSequenceOp> entries;
  for (auto sequence : spec.getOps<transform::NamedSequenceOp>())
    if (sequence->hasAttr(entryName))
      entries.push_back(sequence);
  if (entries.empty())
    return spec.emitError()
           << "has no entry point: tag one transform.named_sequence with '"
           << entryName << "'";
  if (entries.size() > 1) {
    InFlightDiagnostic diag = entries[1].emitError()
                              << "is a second entry point of the spec; a "
                                 "spec has one";
    diag.attachNote(entries[0].getLoc()) << "the first one";
    return diag;
  }
  transform::NamedSequenceOp entry = entries.front();
  FunctionType type = entry.getFunctionType();
  auto isAnyOp = [](Type type) { return isa<transform::AnyOpType>(type); };
  bool consumed =
      type.getNumInputs() == 1 &&
      entry.getArgAttr(0, transform::TransformDialect::kArgConsumedAttrName);
  if (type.getNumInputs() != 1 || !isAnyOp(type.getInput(0)) || !consumed ||
      type.getNumResults() != 1 || !isAnyOp(type.getResult(0)))
    return entry.emitError() << "is the spec's entry point, so its signature "
                                "must be "
                             << kEntrySignature << ", not " << type
                             << (consumed || type.getNumInputs() != 1
                                     ? ""
                                     : " (its argument is not consumed)");
  if (entry.isExternal())
    return entry.emitError() << "is the spec's entry point but has no body";
  return entry;
}

OwningOpRef<ModuleOp> kiln::loadTuningSpec(MLIRContext *context,
                                           StringRef path) {
  // A regular file read to its end, with a size limit: a FIFO or a device
  // is an error, not a hang.
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readInputFile(path, "tuning spec");
  if (!buffer) {
    emitError(FileLineColLoc::get(context, path, 0, 0))
        << llvm::toString(buffer.takeError());
    return nullptr;
  }
  noteFileRead(context, path, "a tuning spec");
  return loadTuningSpec(context, path, (*buffer)->getBuffer());
}

OwningOpRef<ModuleOp> kiln::loadTuningSpec(MLIRContext *context, StringRef name,
                                           StringRef contents) {
  llvm::SourceMgr sourceMgr;
  // A copy: the text lexer needs the terminating nul a copy guarantees.
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(contents, name), llvm::SMLoc());
  if (failed(checkNesting(sourceMgr, context)))
    return nullptr;
  OwningOpRef<ModuleOp> spec =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(context));
  if (!spec)
    return nullptr;
  if (failed(verifyTuningSpec(*spec)))
    return nullptr;
  return spec;
}

FailureOr<OwningOpRef<ModuleOp>>
kiln::linkTuningSpecs(MLIRContext *context,
                      std::vector<TuningSpecInput> specs) {
  Location libraryLoc =
      NameLoc::get(StringAttr::get(context, "linked tuning library"));
  OwningOpRef<ModuleOp> library = ModuleOp::create(libraryLoc);
  Builder builder(context);
  (*library)->setAttr(transform::TransformDialect::kWithNamedSequenceAttrName,
                      builder.getUnitAttr());
  (*library)->setAttr(KilnDialect::getTuningSpecVersionAttrName(),
                      builder.getI64IntegerAttr(kTuningSpecVersion));

  llvm::StringSet<> taken = {kLinkedEntryPoint};
  SmallVector<std::string> entries;
  StringRef entryAttr = KilnDialect::getTuningSpecEntrypointAttrName();
  for (TuningSpecInput &input : specs) {
    ModuleOp spec = *input.spec;
    FailureOr<transform::NamedSequenceOp> entry = verifyTuningSpec(spec);
    if (failed(entry))
      return failure();
    // Symbols that clash with ones linked already get a new name, and the
    // spec's uses of them follow.
    llvm::StringSet<> own;
    for (Operation &op : spec.getBody()->getOperations())
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        own.insert(symbol.getName());
    for (Operation &op : spec.getBody()->getOperations()) {
      auto symbol = dyn_cast<SymbolOpInterface>(op);
      if (!symbol || !taken.contains(symbol.getName()))
        continue;
      std::string name;
      for (unsigned suffix = 1;; ++suffix) {
        name = (symbol.getName() + "_" + Twine(suffix)).str();
        if (!taken.contains(name) && !own.contains(name))
          break;
      }
      StringAttr newName = builder.getStringAttr(name);
      if (failed(SymbolTable::replaceAllSymbolUses(&op, newName, spec)))
        return op.emitError() << "could not be renamed to @" << name
                              << " while linking tuning specs";
      own.insert(name);
      symbol.setName(newName);
    }
    entries.push_back(entry->getSymName().str());
    (*entry)->removeAttr(entryAttr);
    StringAttr source = builder.getStringAttr(input.source);
    for (Operation &op :
         llvm::make_early_inc_range(spec.getBody()->getOperations())) {
      if (isa<transform::NamedSequenceOp>(op))
        op.setAttr(KilnDialect::getTuningSpecSourceAttrName(), source);
      if (auto symbol = dyn_cast<SymbolOpInterface>(op))
        taken.insert(symbol.getName());
      op.moveBefore(library->getBody(), library->getBody()->end());
    }
  }

  // The entry point: each spec's entry in turn, the handle threaded through.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "transform.named_sequence @" << kLinkedEntryPoint
     << "(%root: !transform.any_op {transform.consumed}) -> !transform.any_op "
        "attributes {"
     << entryAttr << "} {\n";
  std::string handle = "%root";
  for (auto [index, entry] : llvm::enumerate(entries)) {
    std::string next = "%h" + std::to_string(index);
    os << "  " << next << " = transform.include @" << entry
       << " failures(propagate) (" << handle
       << ") : (!transform.any_op) -> !transform.any_op\n";
    handle = next;
  }
  os << "  transform.yield " << handle << " : !transform.any_op\n}\n";
  OwningOpRef<ModuleOp> wrapper = parseSourceString<ModuleOp>(
      text, ParserConfig(context, /*verifyAfterParse=*/false));
  if (!wrapper)
    return failure();
  Operation &entryOp = wrapper->getBody()->front();
  entryOp.walk([&](Operation *op) { op->setLoc(libraryLoc); });
  entryOp.moveBefore(library->getBody(), library->getBody()->end());
  if (failed(verify(*library)))
    return failure();
  return library;
}
