//===- kiln-opt.cpp - Kiln's opt tool -------------------------------------===//
//
// mlir-opt with Kiln's dialect, passes and phase pipelines
// (--kiln-phase-<name>) added to upstream's, and Kiln's plugins: their
// dialects, passes and flags, and the hooks of the active ones in the phase
// pipelines.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Driver/CompileSession.h"
#include "kiln/Driver/InitAll.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Options/ToolHelp.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/Support/Version.h"
#include "kiln/Support/WriteFile.h"
#include "mlir/Debug/Counter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

/// The session of this run, which every context of the run compiles in.
static kiln::PluginSession *toolSession = nullptr;

static int fail(llvm::Error error) {
  llvm::errs() << "kiln-opt: error: " << llvm::toString(std::move(error))
               << "\n";
  return 1;
}

int main(int argc, char **argv) {
  kiln::ToolHelp help;
  mlir::registerAllPasses();
  kiln::registerKilnPasses();
  kiln::registerKilnComponents();
  kiln::registerPipelineFlags();
  if (llvm::Error error = kiln::initializePlugins(argc, argv))
    return fail(std::move(error));
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << kiln::getVersionLine("kiln-opt") << "  on MLIR and LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
  // What mlir::registerAndParseCLIOptions does, with --help organized.
  llvm::cl::opt<std::string> inputFlag(llvm::cl::Positional,
                                       llvm::cl::desc("<input file>"),
                                       llvm::cl::init("-"));
  llvm::cl::opt<std::string> outputFlag("o", llvm::cl::desc("Output filename"),
                                        llvm::cl::value_desc("filename"),
                                        llvm::cl::init("-"));
  mlir::MlirOptMainConfig::registerCLOptions(registry);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();
  mlir::tracing::DebugCounter::registerCLOptions();
  help.organize("kiln-opt");
  llvm::cl::ParseCommandLineOptions(argc, argv, "Kiln optimizer driver\n");
  std::string input = inputFlag, output = outputFlag;

  // The plugins the flags activate take part in the phase pipelines: the
  // session attaches to the context MlirOptMain makes, once the kiln
  // dialect loads there (the phase passes load it).
  std::vector<std::string> arguments(argv + 1, argv + argc);
  kiln::setFlagsFingerprint(kiln::makeObjectCodeFingerprint(arguments, input));
  std::unique_ptr<kiln::CompileSession> compileSession =
      kiln::CompileSession::forTool(arguments);
  std::unique_ptr<kiln::PluginSession> plugins =
      compileSession->makePluginSession();
  kiln::PluginSession &session = *plugins;
  if (llvm::Error error = session.activate())
    return fail(std::move(error));
  toolSession = &session;
  registry.addExtension(+[](mlir::MLIRContext *context, kiln::KilnDialect *) {
    toolSession->attachTo(context);
  });
  if (kiln::shouldListPlugins()) {
    llvm::outs() << kiln::describePlugins(&session);
    return 0;
  }

  // As MlirOptMain(argc, argv, ...) would, except that the output follows
  // Kiln's rules (OutputFile): written only on success, atomically, never
  // over the input, and devices and FIFOs written in place.
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleave(registry.getDialectNames(), llvm::outs(), ",");
    llvm::outs() << "\n";
    return 0;
  }
  if (config.shouldListPasses()) {
    mlir::printRegisteredPasses();
    return 0;
  }
  std::unique_ptr<kiln::OutputFile> outputFile;
  if (output != "-") {
    auto opened = kiln::openOutputFile(output, {input});
    if (!opened)
      return fail(opened.takeError());
    outputFile = std::move(*opened);
  }
  auto read = kiln::readInputFileOrStdin(input, "input file");
  if (!read)
    return fail(read.takeError());
  std::unique_ptr<llvm::MemoryBuffer> buffer = std::move(*read);
  {
    // Text nested too deeply for the parser's stack is refused first.
    mlir::MLIRContext scratch(mlir::MLIRContext::Threading::DISABLED);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(buffer->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &scratch);
    if (failed(kiln::checkNesting(sourceMgr, &scratch)))
      return 1;
  }
  if (!outputFile)
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(llvm::outs(), std::move(buffer), registry, config));
  llvm::Error error = kiln::writeAndCommit(
      *outputFile, [&](llvm::raw_ostream &os) -> llvm::Error {
        if (failed(mlir::MlirOptMain(os, std::move(buffer), registry, config)))
          return llvm::createStringError("");
        return llvm::Error::success();
      });
  if (error) {
    std::string text = llvm::toString(std::move(error));
    if (!text.empty())
      llvm::errs() << "kiln-opt: error: " << text << "\n";
    return 1;
  }
  return 0;
}
