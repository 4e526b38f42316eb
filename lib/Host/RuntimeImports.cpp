//===- RuntimeImports.cpp - Calling the runtime from host code ------------===//
//
// Host code reaches the runtime's imports through the kiln_host_context it
// receives: `context->imports` lists them in the order of the module's
// `kiln.imports` attribute, which EmitEntryPoints writes into the metadata.
//
//===----------------------------------------------------------------------===//

#include "RuntimeImports.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace kiln;

/// The index of import `name` in the module's import list, added on first
/// use.
static int32_t getImportIndex(ModuleOp module, StringRef name) {
  MLIRContext *context = module.getContext();
  auto imports =
      module->getAttrOfType<ArrayAttr>(KilnDialect::getImportsAttrName());
  SmallVector<Attribute> names;
  if (imports)
    names.assign(imports.begin(), imports.end());
  for (auto [index, existing] : llvm::enumerate(names))
    if (cast<StringAttr>(existing).getValue() == name)
      return static_cast<int32_t>(index);
  names.push_back(StringAttr::get(context, name));
  module->setAttr(KilnDialect::getImportsAttrName(),
                  ArrayAttr::get(context, names));
  return static_cast<int32_t>(names.size() - 1);
}

Value kiln::callRuntimeImport(OpBuilder &builder, Location loc, ModuleOp module,
                              Value runtime, StringRef name, Type resultType,
                              ValueRange args) {
  MLIRContext *context = module.getContext();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Value importsField = LLVM::GEPOp::create(builder, loc, ptrType, ptrType,
                                           runtime, ArrayRef<LLVM::GEPArg>{1});
  Value imports = LLVM::LoadOp::create(builder, loc, ptrType, importsField);
  Value slot =
      LLVM::GEPOp::create(builder, loc, ptrType, ptrType, imports,
                          ArrayRef<LLVM::GEPArg>{getImportIndex(module, name)});
  Value function = LLVM::LoadOp::create(builder, loc, ptrType, slot);
  SmallVector<Type> argTypes = {ptrType};
  llvm::append_range(argTypes, args.getTypes());
  auto functionType = LLVM::LLVMFunctionType::get(
      resultType ? resultType : LLVM::LLVMVoidType::get(context), argTypes);
  SmallVector<Value> operands = {function, runtime};
  llvm::append_range(operands, args);
  auto call = LLVM::CallOp::create(builder, loc, functionType, operands);
  return resultType ? call.getResult() : Value();
}

FailureOr<int32_t> kiln::getHostExternIndex(ModuleOp module, Operation *op,
                                            StringRef name,
                                            StringRef signature) {
  MLIRContext *context = module.getContext();
  SmallVector<Attribute> entries;
  if (auto existing =
          module->getAttrOfType<ArrayAttr>(KilnDialect::getExternsAttrName()))
    entries.assign(existing.begin(), existing.end());
  for (auto [index, entry] : llvm::enumerate(entries)) {
    auto dictionary = cast<DictionaryAttr>(entry);
    if (dictionary.getAs<StringAttr>("name").getValue() != name)
      continue;
    StringRef other = dictionary.getAs<StringAttr>("signature").getValue();
    if (other != signature)
      return op->emitOpError()
             << "calls '" << name << "' as " << signature
             << ", and the module calls it elsewhere as " << other
             << "; a runtime extension provides one signature per name";
    return static_cast<int32_t>(index);
  }
  Builder b(context);
  entries.push_back(b.getDictionaryAttr(
      {b.getNamedAttr("name", b.getStringAttr(name)),
       b.getNamedAttr("kind", b.getStringAttr("host")),
       b.getNamedAttr("signature", b.getStringAttr(signature))}));
  module->setAttr(KilnDialect::getExternsAttrName(),
                  ArrayAttr::get(context, entries));
  return static_cast<int32_t>(entries.size() - 1);
}

std::string kiln::describeLocation(Location loc) {
  std::string text;
  loc->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
      text = fileLoc.getFilename().getValue().str();
      // Line 0 is no line: a place in a model file (an ONNX node).
      if (fileLoc.getLine() != 0)
        text +=
            (":" + Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
                .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

HostSymbols::HostSymbols(ModuleOp module) : module(module) {}

LLVM::LLVMFuncOp HostSymbols::declareFunction(StringRef name,
                                              LLVM::LLVMFunctionType type) {
  SymbolTable &table = collection.getSymbolTable(module);
  if (auto existing = table.lookup<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder(module.getContext());
  auto function =
      LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
  table.insert(function);
  return function;
}

static constexpr StringLiteral kStringPrefix = "__kiln_string_";

Value HostSymbols::getStringPointer(OpBuilder &builder, Location loc,
                                    StringRef text) {
  MLIRContext *context = module.getContext();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  if (!strings) {
    strings.emplace();
    for (auto global : module.getOps<LLVM::GlobalOp>())
      if (global.getSymName().starts_with(kStringPrefix))
        if (auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull()))
          strings->try_emplace(value.getValue().drop_back(),
                               global.getSymName().str());
  }
  auto found = strings->find(text);
  if (found != strings->end())
    return LLVM::AddressOfOp::create(builder, loc, ptrType, found->second);

  SymbolTable &table = collection.getSymbolTable(module);
  std::string name;
  for (unsigned n = strings->size();; ++n) {
    name = (kStringPrefix + Twine(n)).str();
    if (!table.lookup(name))
      break;
  }
  std::string data = text.str();
  data.push_back('\0');
  OpBuilder moduleBuilder(context);
  auto type =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), data.size());
  auto global = LLVM::GlobalOp::create(
      moduleBuilder, loc, type, /*isConstant=*/true, LLVM::Linkage::Internal,
      name, moduleBuilder.getStringAttr(data));
  table.insert(global);
  strings->try_emplace(text, name);
  return LLVM::AddressOfOp::create(builder, loc, ptrType, name);
}
