//===- kiln-import-onnx.cpp - Write an ONNX model as MLIR -----------------===//
//
// Imports an ONNX model with the onnx plugin's importer and writes the
// program it makes (`onnx.node` ops, before conversion to linalg), to
// inspect it or to edit and compile it:
//   kiln-import-onnx model.onnx -o model.mlir
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/InitAll.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Options/ToolHelp.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Support/Version.h"
#include "kiln/Support/WriteFile.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace kiln;
namespace cl = llvm::cl;

static int fail(llvm::Error err) {
  llvm::WithColor::error(llvm::errs(), "kiln-import-onnx")
      << llvm::toString(std::move(err)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  kiln::ToolHelp help;
  llvm::InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.onnx>"));
  cl::opt<std::string> outputFile("o", cl::desc("Output file ('-' for stdout)"),
                                  cl::value_desc("file"), cl::init("-"));
  cl::list<std::string> inputShapes(
      "kiln-input-shape",
      cl::desc("The shape of an input, by name or position "
               "(x:1x3x640x640 or 0:1x3x640x640), as kiln-compile takes it"),
      cl::value_desc("input:shape"));
  cl::list<std::string> dimValues(
      "kiln-dim",
      cl::desc("The size of a symbolic dimension wherever it appears "
               "(N=1), as kiln-compile takes it"),
      cl::value_desc("symbol=value"));
  if (llvm::Error error = initializePlugins(argc, argv))
    return fail(std::move(error));
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << kiln::getVersionLine("kiln-import-onnx") << "  on MLIR and LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
  help.organize("kiln-import-onnx");
  cl::ParseCommandLineOptions(argc, argv, "Kiln's ONNX importer\n");
  if (inputFile.empty())
    return fail(llvm::createStringError(
        "no input file given (kiln-import-onnx MODEL.onnx -o OUT.mlir)"));

  llvm::Expected<kiln::InputSpecialization> specialization =
      kiln::parseInputSpecialization(
          std::vector<std::string>(inputShapes.begin(), inputShapes.end()),
          std::vector<std::string>(dimValues.begin(), dimValues.end()));
  if (!specialization)
    return fail(specialization.takeError());
  auto input = readInputFileOrStdin(inputFile, "input file");
  if (!input)
    return fail(input.takeError());
  // Refuse an output over the input before importing anything.
  std::unique_ptr<OutputFile> output;
  if (outputFile != "-") {
    auto opened = openOutputFile(outputFile, {inputFile});
    if (!opened)
      return fail(opened.takeError());
    output = std::move(*opened);
  }

  PluginSession session;
  session.requestFromFlags();
  auto importer =
      session.findImporter((*input)->getBuffer(), "onnx", inputFile);
  if (!importer)
    return fail(importer.takeError());
  if (!*importer)
    return fail(llvm::createStringError(
        "no ONNX importer: Kiln was built without the onnx plugin"));

  registerKilnComponents();
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler printer(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      (**importer).import(**input, &context, *specialization);
  if (!module)
    return fail(llvm::createStringError("cannot import '" + inputFile +
                                        "' (see the errors above)"));
  auto print = [&](llvm::raw_ostream &os) -> llvm::Error {
    module->print(os);
    os << "\n";
    return llvm::Error::success();
  };
  if (!output) {
    llvm::Error error = print(llvm::outs());
    llvm::outs().flush();
    return error ? fail(std::move(error)) : 0;
  }
  if (llvm::Error error = writeAndCommit(*output, print))
    return fail(std::move(error));
  return 0;
}
