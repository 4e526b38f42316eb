//===- EmitEntryPoints.cpp - Exported functions and their description ----===//
//
// Emits one kiln_entry_fn per public host function and the metadata text
// the runtime reads, and makes everything else internal to the module.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "kiln_module_abi.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {
#define GEN_PASS_DEF_EMITENTRYPOINTSPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The features of `target` that the runtime checks, comma-separated, or
/// "-" when there are none: every one of LLVM's x86 ISA features it
/// enables (the runtime knows them all, kiln_module_abi.h), not LLVM's
/// tuning flags.
static std::string getRequiredFeatures(TargetAttr target) {
  static constexpr llvm::StringLiteral kISAFeatures[] = {
#define X86_FEATURE(ENUM, STR) STR,
#include "llvm/TargetParser/X86TargetParser.def"
  };
  SmallVector<StringRef> items, required;
  if (target)
    target.getCPUFeatures().split(items, ',');
  for (StringRef item : items) {
    if (!item.consume_front("+"))
      continue;
    if (llvm::is_contained(kISAFeatures, item))
      required.push_back(item);
  }
  llvm::sort(required);
  required.erase(llvm::unique(required), required.end());
  return required.empty() ? "-" : llvm::join(required, ",");
}

/// An `input` or `output` line: the type, then the name when it has one,
/// its spaces, unprintable bytes and '%' written as %XX.
static void printTensorType(llvm::raw_ostream &os, StringRef keyword, Type type,
                            StringRef name) {
  auto tensor = cast<RankedTensorType>(type);
  os << keyword << " " << tensor.getElementType() << " " << tensor.getRank();
  for (int64_t dim : tensor.getShape())
    os << " " << (ShapedType::isDynamic(dim) ? -1 : dim);
  if (!name.empty()) {
    os << " ";
    for (unsigned char c : name) {
      if (llvm::isPrint(c) && c != ' ' && c != '%')
        os << c;
      else
        os << '%' << llvm::hexdigit(c >> 4) << llvm::hexdigit(c & 15);
    }
  }
  os << "\n";
}

/// The names `func` gives its `count` inputs or outputs (attribute
/// `attrName`), "" for each when it gives none; failure when it gives
/// another number.
static FailureOr<SmallVector<StringRef>>
getNames(Operation *func, StringRef attrName, unsigned count) {
  SmallVector<StringRef> names(count, "");
  auto given = func->getAttrOfType<ArrayAttr>(attrName);
  if (!given)
    return names;
  if (given.size() != count)
    return func->emitError() << "'" << attrName << "' names " << given.size()
                             << " values; the function has " << count,
           failure();
  for (auto [i, name] : llvm::enumerate(given.getAsValueRange<StringAttr>()))
    names[i] = name;
  return names;
}

/// Creates `llvm.func @name(%context, %inputs, %outputs)` calling the C
/// interface `wrapper` of a function with `numInputs` inputs.
static void createEntryPoint(OpBuilder &builder, Location loc, StringRef name,
                             LLVM::LLVMFuncOp wrapper, unsigned numInputs,
                             bool hasResults) {
  MLIRContext *context = builder.getContext();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                          {ptrType, ptrType, ptrType});
  auto entry = LLVM::LLVMFuncOp::create(builder, loc, name, type);
  Block *body = entry.addEntryBlock(builder);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(body);
  SmallVector<Value> args;
  if (hasResults)
    args.push_back(body->getArgument(2));
  args.push_back(body->getArgument(0));
  for (unsigned i = 0; i < numInputs; ++i) {
    Value slot = LLVM::GEPOp::create(builder, loc, ptrType, ptrType,
                                     body->getArgument(1),
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
    args.push_back(LLVM::LoadOp::create(builder, loc, ptrType, slot));
  }
  LLVM::CallOp::create(builder, loc, wrapper, args);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
}

/// `text` as one word of metadata: whitespace and unprintable bytes (a
/// symbol name may hold any) become '_', and nothing becomes "?".
static void printWord(llvm::raw_ostream &os, StringRef text) {
  if (text.empty())
    os << "?";
  for (char c : text)
    os << (llvm::isPrint(c) && c != ' ' ? c : '_');
}

/// A `dispatch` line of the metadata for a row of kiln.dispatch_table.
static void printDispatch(llvm::raw_ostream &os, DictionaryAttr row) {
  os << "dispatch ";
  printWord(os, row.getAs<StringAttr>("name").getValue());
  os << " " << row.getAs<IntegerAttr>("flops").getInt() << " "
     << row.getAs<IntegerAttr>("bytes").getInt();
  // The root op's three words, or "? ? ?" for anything else.
  SmallVector<StringRef> words;
  row.getAs<StringAttr>("root").getValue().split(words, ' ');
  if (words.size() != 3)
    words.assign(3, "?");
  for (StringRef word : words) {
    os << " ";
    printWord(os, word);
  }
  os << "\n";
}

/// The functions of runtime extensions the module calls: the host
/// functions host code indexes (the module's kiln.externs), then the kernel
/// functions variants call (theirs), each once. Fails, with an error, when
/// two callers disagree on a callee's kind or signature.
static FailureOr<SmallVector<DictionaryAttr>> collectExterns(ModuleOp module) {
  SmallVector<DictionaryAttr> externs;
  auto add = [&](DictionaryAttr entry, Operation *where) -> LogicalResult {
    StringRef name = entry.getAs<StringAttr>("name").getValue();
    for (DictionaryAttr seen : externs) {
      if (seen.getAs<StringAttr>("name").getValue() != name)
        continue;
      if (seen == entry)
        return success();
      return where->emitError()
             << "calls '" << name << "' as a "
             << entry.getAs<StringAttr>("kind").getValue() << " function "
             << entry.getAs<StringAttr>("signature").getValue()
             << ", and the module calls it elsewhere as a "
             << seen.getAs<StringAttr>("kind").getValue() << " function "
             << seen.getAs<StringAttr>("signature").getValue()
             << "; a runtime extension provides one per name";
    }
    externs.push_back(entry);
    return success();
  };
  StringRef attrName = KilnDialect::getExternsAttrName();
  if (auto entries = module->getAttrOfType<ArrayAttr>(attrName))
    for (auto entry : entries.getAsRange<DictionaryAttr>())
      if (failed(add(entry, module)))
        return failure();
  for (auto executable : module.getOps<ExecutableOp>())
    for (auto variant : executable.getVariantOps())
      if (auto entries = variant->getAttrOfType<ArrayAttr>(attrName))
        for (auto entry : entries.getAsRange<DictionaryAttr>())
          if (failed(add(entry, variant)))
            return failure();
  return externs;
}

/// The pointer a kernel function's callers load it from, which the runtime
/// fills at load: `__kiln_extern.<name>`, null until then.
static void defineExternSlot(OpBuilder &builder, Location loc, StringRef name) {
  Type ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  auto global = LLVM::GlobalOp::create(
      builder, loc, ptrType, /*isConstant=*/false, LLVM::Linkage::External,
      ("__kiln_extern." + name).str(), Attribute());
  OpBuilder::InsertionGuard guard(builder);
  builder.createBlock(&global.getInitializerRegion());
  LLVM::ReturnOp::create(builder, loc,
                         LLVM::ZeroOp::create(builder, loc, ptrType));
}

namespace {
struct EmitEntryPointsPass
    : public kiln::impl::EmitEntryPointsPassBase<EmitEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target =
        module->getAttrOfType<TargetAttr>(KilnDialect::getTargetAttrName());

    std::string info;
    llvm::raw_string_ostream os(info);
    os << "kiln-module " << KILN_MODULE_ABI_VERSION << "\n";
    os << "target "
       << (target ? target.getTriple() : "x86_64-unknown-linux-gnu") << " "
       << (target && !target.getCPU().empty() ? target.getCPU() : "generic")
       << "\n";
    os << "features " << getRequiredFeatures(target) << "\n";
    if (auto variants = module->getAttrOfType<ArrayAttr>(
            KilnDialect::getVariantTargetsAttrName()))
      for (auto variant : variants.getAsRange<TargetAttr>()) {
        os << "variant ";
        printWord(os, variant.getBackend().getValue());
        os << " ";
        printWord(os, variant.getCPU());
        os << " " << getRequiredFeatures(variant) << "\n";
      }
    if (auto imports =
            module->getAttrOfType<ArrayAttr>(KilnDialect::getImportsAttrName()))
      for (Attribute name : imports)
        os << "import " << cast<StringAttr>(name).getValue() << "\n";
    FailureOr<SmallVector<DictionaryAttr>> externs = collectExterns(module);
    if (failed(externs))
      return signalPassFailure();
    for (DictionaryAttr entry : *externs)
      os << "extern " << entry.getAs<StringAttr>("kind").getValue() << " "
         << entry.getAs<StringAttr>("name").getValue() << " "
         << entry.getAs<StringAttr>("signature").getValue() << "\n";
    if (auto table = module->getAttrOfType<ArrayAttr>(
            KilnDialect::getDispatchTableAttrName()))
      for (auto row : table.getAsRange<DictionaryAttr>())
        printDispatch(os, row);

    SmallVector<LLVM::LLVMFuncOp> functions;
    // The C interface wrappers inherit the attributes of their functions.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(KilnDialect::getSignatureAttrName()) &&
          !func.getName().starts_with("_mlir_ciface_"))
        functions.push_back(func);

    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    for (DictionaryAttr entry : *externs)
      if (entry.getAs<StringAttr>("kind").getValue() == "kernel")
        defineExternSlot(builder, module.getLoc(),
                         entry.getAs<StringAttr>("name").getValue());
    for (auto [index, func] : llvm::enumerate(functions)) {
      auto signature = cast<FunctionType>(
          func->getAttrOfType<TypeAttr>(KilnDialect::getSignatureAttrName())
              .getValue());
      auto wrapper = module.lookupSymbol<LLVM::LLVMFuncOp>(
          ("_mlir_ciface_" + func.getName()).str());
      if (!wrapper) {
        func.emitError() << "has no C interface to export";
        return signalPassFailure();
      }
      std::string entryName = "kiln_entry_" + std::to_string(index);
      createEntryPoint(builder, func.getLoc(), entryName, wrapper,
                       signature.getNumInputs(), signature.getNumResults() > 0);
      int64_t flops = 0;
      if (auto attr =
              func->getAttrOfType<IntegerAttr>(KilnDialect::getFlopsAttrName()))
        flops = attr.getInt();
      auto exportName =
          func->getAttrOfType<StringAttr>(KilnDialect::getExportNameAttrName());
      os << "function " << (exportName ? exportName.getValue() : func.getName())
         << " " << entryName << " " << flops << "\n";
      FailureOr<SmallVector<StringRef>> inputNames = getNames(
          func, KilnDialect::getInputNamesAttrName(), signature.getNumInputs());
      FailureOr<SmallVector<StringRef>> outputNames =
          getNames(func, KilnDialect::getOutputNamesAttrName(),
                   signature.getNumResults());
      if (failed(inputNames) || failed(outputNames))
        return signalPassFailure();
      for (auto [type, name] : llvm::zip(signature.getInputs(), *inputNames))
        printTensorType(os, "input", type, name);
      for (auto [type, name] : llvm::zip(signature.getResults(), *outputNames))
        printTensorType(os, "output", type, name);
      os << "end\n";
    }

    // Everything but the entry points and the metadata stays inside.
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (!func.isExternal() && !func.getName().starts_with("kiln_entry_"))
        func.setLinkage(LLVM::Linkage::Internal);

    info.push_back('\0');
    auto infoType = LLVM::LLVMArrayType::get(builder.getI8Type(), info.size());
    LLVM::GlobalOp::create(builder, module.getLoc(), infoType,
                           /*isConstant=*/true, LLVM::Linkage::External,
                           KILN_MODULE_INFO_SYMBOL,
                           builder.getStringAttr(info));
  }
};
} // namespace
