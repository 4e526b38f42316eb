//===- kiln-compile.cpp - Kiln's compiler driver --------------------------===//
//
// Compiles an MLIR program through Kiln's phases:
//   kiln-compile FILE -o OUT [--compile-to=PHASE] [--compile-from=PHASE]
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Driver/CompileSession.h"
#include "kiln/Driver/InitAll.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Instrumentation/ProgressReporter.h"
#include "kiln/Options/ToolHelp.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/Version.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace kiln;
namespace cl = llvm::cl;

static int fail(llvm::Error err) {
  llvm::WithColor::error(llvm::errs(), "kiln-compile")
      << llvm::toString(std::move(err)) << "\n";
  return 1;
}

/// For --kiln-list-plugins with a program: the plugins its `kiln.plugins`
/// asks for, as a compile of it would add them. A model a plugin imports
/// (no such attribute) activates the session while it is recognized.
static llvm::Error addProgramRequests(PluginSession &plugins,
                                      llvm::StringRef inputFile) {
  if (inputFile.empty())
    return llvm::Error::success();
  auto read = readInputFileOrStdin(inputFile, "input file");
  if (!read)
    return read.takeError();
  std::unique_ptr<llvm::MemoryBuffer> input = std::move(*read);
  auto importer = plugins.findImporter(
      input->getBuffer(), getPipelineOptionsFromFlags().input.inputType,
      inputFile);
  if (!importer)
    return importer.takeError();
  if (*importer)
    return llvm::Error::success();
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler printer(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    return llvm::createStringError(
        "cannot read the plugins '" + inputFile +
        "' asks for: it is not valid MLIR (see the errors above)");
  plugins.requestFromModule(*module);
  return llvm::Error::success();
}

int main(int argc, char **argv) {
  kiln::ToolHelp help;
  llvm::InitLLVM init(argc, argv);
  // Passes are registered so that pass names work in --mlir-print-ir-* and
  // in pipelines given on the command line.
  mlir::registerAllPasses();
  registerKilnPasses();
  registerPipelineFlags();
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::registerDefaultTimingManagerCLOptions();

  cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input file>"));
  cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for stdout)"),
                                  cl::value_desc("file"), cl::init("-"));
  // cl::desc keeps a StringRef: the text must outlive the option.
  std::string compileToHelp =
      "Last phase to run (" +
      llvm::join(llvm::map_range(getAllPhases(), getPhaseName), ", ") +
      "); default: the last";
  cl::opt<std::string> compileTo(
      "compile-to", cl::desc(compileToHelp), cl::value_desc("phase"),
      cl::init(getPhaseName(getAllPhases().back()).str()));
  cl::opt<std::string> compileFrom(
      "compile-from",
      cl::desc("The phase that produced the input; resume after it"),
      cl::value_desc("phase"));
  cl::opt<bool> emitBytecode("emit-bytecode",
                             cl::desc("Write MLIR bytecode instead of text"));
  cl::opt<std::string> statisticsFile(
      "kiln-compile-stats",
      cl::desc("Write where the compile spent its time to FILE as JSON: "
               "each phase, each executable's codegen and LLVM time, the "
               "object cache's hits and misses"),
      cl::value_desc("file"));
  cl::opt<bool> quiet(
      "quiet", cl::desc("No progress on the terminal during long compiles"));
  // Plugins first: the flags of the ones loaded from shared objects must
  // exist before the command line is parsed.
  if (llvm::Error error = initializePlugins(argc, argv,
                                            /*upstreamPlugins=*/true))
    return fail(std::move(error));
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << kiln::getVersionLine("kiln-compile") << "  on MLIR and LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
  help.organize("kiln-compile");
  cl::ParseCommandLineOptions(argc, argv, "Kiln compiler\n");

  std::unique_ptr<CompileSession> session =
      CompileSession::forTool(std::vector<std::string>(argv + 1, argv + argc));
  if (shouldListPlugins()) {
    std::unique_ptr<PluginSession> plugins = session->makePluginSession();
    if (llvm::Error error = addProgramRequests(*plugins, inputFile))
      return fail(std::move(error));
    if (!plugins->isActivated())
      if (llvm::Error error = plugins->activate())
        return fail(std::move(error));
    llvm::outs() << describePlugins(plugins.get());
    return 0;
  }

  if (inputFile.empty())
    return fail(llvm::createStringError(
        "no input file given (kiln-compile FILE -o OUT; --help lists the "
        "options)"));
  CompileRequest request;
  request.inputFile = inputFile;
  request.outputFile = outputFile;
  request.emitBytecode = emitBytecode;
  request.statisticsFile = statisticsFile;
  request.showProgress = !quiet && ProgressReporter::isAvailable();
  request.tool = "kiln-compile";
  auto to = lookupPhase(compileTo);
  if (!to)
    return fail(llvm::createStringError("--compile-to: " +
                                        llvm::toString(to.takeError())));
  request.compileTo = *to;
  if (!compileFrom.empty()) {
    auto from = lookupPhase(compileFrom);
    if (!from)
      return fail(llvm::createStringError("--compile-from: " +
                                          llvm::toString(from.takeError())));
    request.compileFrom = *from;
  }

  registerKilnComponents();
  if (llvm::Error err = session->compile(request))
    return fail(std::move(err));
  return 0;
}
