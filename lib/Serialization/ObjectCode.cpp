//===- ObjectCode.cpp - LLVM dialect to x86-64 object code ----------------===//

#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;
using namespace kiln;

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const llvm::Triple &triple, StringRef cpu,
                    StringRef features) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
  });
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no LLVM target for '" + triple.str() +
                                   "': " + error);
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpu, features, options, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine)
    return llvm::createStringError("cannot create a target machine for '" +
                                   cpu + "'");
  return std::move(machine);
}

/// -O3 over the whole module for kernels; -O2's function simplification of
/// each function for host code.
static void optimize(llvm::Module &module, llvm::TargetMachine &machine,
                     CodeKind kind) {
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager cgsccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgsccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, cgsccAnalyses,
                               moduleAnalyses);
  llvm::ModulePassManager passes;
  if (kind == CodeKind::Kernels)
    passes = builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  else
    passes.addPass(llvm::createModuleToFunctionPassAdaptor(
        builder.buildFunctionSimplificationPipeline(
            llvm::OptimizationLevel::O2, llvm::ThinOrFullLTOPhase::None)));
  passes.run(module, moduleAnalyses);
}

llvm::Expected<std::string>
kiln::serializeLLVMVariant(ExecutableVariantOp variant,
                           const KernelSymbols &symbols) {
  ModuleOp kernels = variant.getInnerModule();
  std::string name =
      "@" + variant->getParentOfType<ExecutableOp>().getSymName().str() +
      "::@" + variant.getSymName().str();
  if (!kernels)
    return llvm::createStringError("variant " + name + " has no module");
  for (Operation &op : kernels.getBody()->getOperations())
    if (!isa<LLVM::LLVMDialect>(op.getDialect()))
      return llvm::createStringError(
          "variant " + name + " holds '" + op.getName().getStringRef() +
          "', which is not in the LLVM dialect; run the executable-codegen "
          "phase before serializing");

  SymbolTable kernelTable(kernels);
  llvm::SmallPtrSet<Operation *, 8> kernelOps;
  for (auto exportOp : variant.getExportOps()) {
    auto symbol = symbols.find(exportOp.getSymName());
    Operation *kernel = kernelTable.lookup(exportOp.getSymName());
    auto func = dyn_cast_or_null<LLVM::LLVMFuncOp>(kernel);
    if (!func || func.isExternal())
      return llvm::createStringError("export @" + exportOp.getSymName() +
                                     " of " + name + " has no kernel to link");
    if (symbol == symbols.end())
      return llvm::createStringError("export @" + exportOp.getSymName() +
                                     " of " + name + " has no kernel symbol");
    auto newName = StringAttr::get(kernels.getContext(), symbol->second);
    if (failed(SymbolTable::replaceAllSymbolUses(kernel, newName, kernels)))
      return llvm::createStringError("the kernel of @" + exportOp.getSymName() +
                                     " could not be renamed");
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
  return emitObjectCode(kernels, variant.getTarget(), "executable " + name,
                        CodeKind::Kernels);
}

llvm::Expected<std::string> kiln::emitObjectCode(ModuleOp module,
                                                 TargetAttr target,
                                                 StringRef name,
                                                 CodeKind kind) {
  llvm::Triple triple(target.getTriple().empty() ? "x86_64-unknown-linux-gnu"
                                                 : target.getTriple());
  StringRef cpu = target.getCPU().empty() ? "x86-64" : target.getCPU();
  StringRef features = target.getCPUFeatures();
  auto machine = createTargetMachine(triple, cpu, features);
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, name);
  if (!llvmModule)
    return llvm::createStringError("cannot translate " + name +
                                   " to LLVM IR (see the errors above)");
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout((*machine)->createDataLayout());
  // Vector widths up to the target's widest registers stay legal even on
  // CPUs that prefer narrower ones, so wide kernels are not split.
  std::string vectorWidth =
      llvm::is_contained(llvm::split(features, ','), "+avx512f") ? "512"
      : llvm::is_contained(llvm::split(features, ','), "+avx")   ? "256"
                                                                 : "128";
  for (llvm::Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", cpu);
    function.addFnAttr("target-features", features);
    function.addFnAttr("min-legal-vector-width", vectorWidth);
  }
  optimize(*llvmModule, **machine, kind);

  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("LLVM cannot emit object code for '" + cpu +
                                   "'");
  codegen.run(*llvmModule);
  return std::string(object.begin(), object.end());
}

DenseResourceElementsAttr kiln::makeObjectCodeAttr(MLIRContext *context,
                                                   StringRef name,
                                                   StringRef bytes) {
  auto type = RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                                    IntegerType::get(context, 8));
  AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(bytes.data(), bytes.size()), alignof(uint64_t));
  return DenseResourceElementsAttr::get(type, name, std::move(blob));
}

std::optional<StringRef> kiln::getObjectCodeBytes(Attribute attr) {
  auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr);
  if (!resource)
    return std::nullopt;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return std::nullopt;
  ArrayRef<char> data = blob->getData();
  return StringRef(data.data(), data.size());
}

// A cache entry's content: a line "kiln-object 2", one line "scratch NAME
// BYTES" per export that needs scratch, a line "exports SIZE" and the
// exports' text, a line "object SIZE" and the object's bytes.
KernelSymbols kiln::getKernelSymbols(ExecutableOp executable,
                                     ExecutableVariantOp variant) {
  KernelSymbols symbols;
  for (auto exportOp : variant.getExportOps())
    symbols[exportOp.getSymName()] =
        getKernelSymbolName(getLaunchEntryPoint(executable, variant, exportOp));
  return symbols;
}

std::string CachedObject::serialize() const {
  std::string text = "kiln-object 2\n";
  for (const auto &[name, bytes] : scratchBytes)
    text += "scratch " + name + " " + std::to_string(bytes) + "\n";
  text += "exports " + std::to_string(exports.size()) + "\n" + exports;
  text += "object " + std::to_string(object.size()) + "\n" + object;
  return text;
}

std::optional<CachedObject> CachedObject::deserialize(StringRef text) {
  CachedObject result;
  auto nextLine = [&]() -> std::optional<StringRef> {
    size_t end = text.find('\n');
    if (end == StringRef::npos)
      return std::nullopt;
    StringRef line = text.take_front(end);
    text = text.drop_front(end + 1);
    return line;
  };
  // "NAME SIZE" and SIZE bytes after it.
  auto takeSized = [&](StringRef line, StringRef name,
                       std::string &into) -> bool {
    uint64_t size;
    if (!line.consume_front(name) || !line.consume_front(" ") ||
        line.getAsInteger(10, size) || size > text.size())
      return false;
    into = text.take_front(size).str();
    text = text.drop_front(size);
    return true;
  };
  std::optional<StringRef> line = nextLine();
  if (!line || *line != "kiln-object 2")
    return std::nullopt;
  while ((line = nextLine()) && line->starts_with("scratch ")) {
    SmallVector<StringRef, 3> words;
    line->split(words, ' ');
    uint64_t value;
    if (words.size() != 3 || words[2].getAsInteger(10, value))
      return std::nullopt;
    result.scratchBytes.emplace_back(words[1].str(), value);
  }
  if (!line || !takeSized(*line, "exports", result.exports))
    return std::nullopt;
  line = nextLine();
  if (!line || !takeSized(*line, "object", result.object) || !text.empty() ||
      !StringRef(result.object)
           .starts_with("\x7f"
                        "ELF"))
    return std::nullopt;
  return result;
}
