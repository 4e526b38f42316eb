//===- SharedObjectWriter.cpp - LLVM dialect to a shared object -----------===//
//
// Translates the linked module to LLVM IR, optimizes it at -O3 for the
// target CPU, emits x86-64 object code in memory and links it, with the
// object files executables attached, into a shared object with ld.lld. No
// C compiler is involved.
//
//===----------------------------------------------------------------------===//

#include "kiln/Serialization/Passes.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ScratchDirectory.h"
#include "kiln_module_abi.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace kiln;

/// ld.lld from Debian's lld-22, next to the LLVM tools or on PATH.
static llvm::Expected<std::string> findLinker() {
  for (const char *candidate :
       {"/usr/lib/llvm-22/bin/ld.lld", "/usr/bin/ld.lld-22"})
    if (llvm::sys::fs::can_execute(candidate))
      return std::string(candidate);
  for (const char *name : {"ld.lld-22", "ld.lld"})
    if (auto path = llvm::sys::findProgramByName(name))
      return *path;
  return llvm::createStringError(
      "cannot find ld.lld to link the module; install Debian's lld-22");
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const llvm::Triple &triple, StringRef cpu,
                    StringRef features) {
  static bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmPrinter();
    return true;
  }();
  (void)initialized;
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

/// -O3 over the whole module.
static void optimize(llvm::Module &module, llvm::TargetMachine &machine) {
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
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(module, moduleAnalyses);
}

/// The first lines of `path`, for error messages.
static std::string readHead(StringRef path, unsigned maxLines = 10) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return "";
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n', maxLines + 1, false);
  if (lines.size() > maxLines)
    lines.resize(maxLines);
  return llvm::join(lines, "\n");
}

/// The file at `from`, followed by the trailer of kiln_module_abi.h (its
/// size and checksum).
static llvm::Expected<std::string> readWithTrailer(StringRef from) {
  auto buffer = llvm::MemoryBuffer::getFile(from, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return llvm::createStringError("cannot read the linked module '" + from +
                                   "': " + buffer.getError().message());
  uint64_t size = (*buffer)->getBufferSize();
  unsigned char trailer[KILN_MODULE_TRAILER_SIZE];
  kiln_module_make_trailer((*buffer)->getBufferStart(), size, trailer);
  std::string bytes((*buffer)->getBufferStart(), size);
  bytes.append(reinterpret_cast<const char *>(trailer), sizeof(trailer));
  return bytes;
}

llvm::Error kiln::writeSharedObject(ModuleOp module, OutputFile &output) {
  auto bytes = buildSharedObject(module, output.getPath());
  if (!bytes)
    return bytes.takeError();
  std::string error;
  if (!output.write(bytes->data(), bytes->size(), error) ||
      !output.commit(error))
    return llvm::createStringError(error);
  return llvm::Error::success();
}

llvm::Expected<std::string> kiln::buildSharedObject(ModuleOp module,
                                                    StringRef path) {
  auto target =
      module->getAttrOfType<TargetAttr>(KilnDialect::getTargetAttrName());
  if (!target)
    return llvm::createStringError(
        "the module has no 'kiln.target'; compile it through the "
        "executable-sources phase");
  llvm::Triple triple(target.getTriple().empty() ? "x86_64-unknown-linux-gnu"
                                                 : target.getTriple());
  StringRef cpu = target.getCPU().empty() ? "x86-64" : target.getCPU();
  StringRef features = target.getCPUFeatures();

  auto machine = createTargetMachine(triple, cpu, features);
  if (!machine)
    return machine.takeError();

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "kiln_module");
  if (!llvmModule)
    return llvm::createStringError(
        "cannot translate the module to LLVM IR (see the errors above)");
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
  optimize(*llvmModule, **machine);

  // The object code, the linker's output and its log live in a scratch
  // folder: removed when this returns, their files on SIGINT and SIGTERM
  // (LLVM's signal handlers), and the folder of a killed compile by the
  // next compile's sweep.
  std::string scratchError;
  std::unique_ptr<ScratchDirectory> scratch =
      ScratchDirectory::create(scratchError);
  if (!scratch)
    return llvm::createStringError(scratchError);
  std::string objectPath = scratch->getFilePath("module.o");
  std::string linkedPath = scratch->getFilePath("module.so");
  std::string logPath = scratch->getFilePath("ld.log");
  for (const std::string &file : {objectPath, linkedPath, logPath})
    llvm::sys::RemoveFileOnSignal(file);
  llvm::scope_exit forgetOnSignal([&] {
    for (const std::string &file : {objectPath, linkedPath, logPath})
      llvm::sys::DontRemoveFileOnSignal(file);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream stream(objectPath, ec);
    if (ec)
      return llvm::createStringError("cannot create '" + objectPath +
                                     "': " + ec.message());
    llvm::legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr,
                                        llvm::CodeGenFileType::ObjectFile))
      return llvm::createStringError("LLVM cannot emit object code for '" +
                                     cpu + "'");
    codegen.run(*llvmModule);
    stream.flush();
    if (stream.has_error()) {
      std::string reason = stream.error().message();
      stream.clear_error();
      return llvm::createStringError("cannot write object code to '" +
                                     objectPath + "': " + reason);
    }
  }

  auto linker = findLinker();
  if (!linker)
    return linker.takeError();
  // -z defs: a symbol nothing defines (a kernel's external function that
  // no attached object provides) fails here, naming the symbol, instead of
  // when the runtime loads the module.
  SmallVector<StringRef> args = {*linker,       "-shared",  "-o",
                                 linkedPath,    objectPath, "-z",
                                 "noexecstack", "-z",       "relro",
                                 "-z",          "defs",     "--hash-style=gnu"};
  // Object files executables attached, after the module's own object.
  SmallVector<std::string> objects;
  if (auto attached =
          module->getAttrOfType<ArrayAttr>(KilnDialect::getObjectsAttrName()))
    for (auto attachedObject : attached.getAsRange<ObjectAttr>()) {
      if (llvm::Error error = attachedObject.checkLinkable())
        return error;
      objects.push_back(attachedObject.getAbsolutePath());
    }
  for (const std::string &object : objects)
    args.push_back(object);
  // Record the C and math libraries as dependencies when they are where
  // Debian puts them; kernels may call expf, memcpy, malloc, ...
  for (const char *library :
       {"/lib/x86_64-linux-gnu/libm.so.6", "/lib/x86_64-linux-gnu/libc.so.6"})
    if (llvm::sys::fs::exists(library))
      args.push_back(library);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string error;
  int status = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &error);
  if (status != 0) {
    std::string log = readHead(logPath);
    return llvm::createStringError(
        "linking '" + path + "' with " + *linker + " failed" +
        (error.empty() ? "" : ": " + error) + (log.empty() ? "" : "\n" + log));
  }
  return readWithTrailer(linkedPath);
}
