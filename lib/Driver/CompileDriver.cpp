//===- CompileDriver.cpp - Compile one file through the phases ------------===//
//
// Reads the input, runs the requested phases one pass manager per phase (so
// a failure names its phase) and writes the output through a temporary file
// that is renamed into place only on success.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Serialization/Passes.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kiln;

/// True for parser errors that mean "this op or dialect is not known".
static bool isUnknownOpError(Diagnostic &diag) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return false;
  std::string message = diag.str();
  StringRef text(message);
  return text.contains("is unknown") || text.contains("not found for custom") ||
         text.contains("unregistered dialect");
}

static OwningOpRef<ModuleOp> parseInput(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr,
                                        bool &sawUnknownOp) {
  // Watch for unknown-op errors; leave printing to the caller's handler.
  ScopedDiagnosticHandler watcher(&context, [&](Diagnostic &diag) {
    sawUnknownOp |= isUnknownOpError(diag);
    return failure();
  });
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

/// Writes `module` to `path` ("-" is standard output): to a temporary file
/// in the same directory first, renamed over `path` once complete.
static llvm::Error writeOutput(ModuleOp module, StringRef path, bool bytecode) {
  auto print = [&](llvm::raw_ostream &os) -> llvm::Error {
    if (bytecode) {
      if (failed(writeBytecodeToFile(module, os)))
        return llvm::createStringError("failed to write bytecode");
    } else {
      module.print(os);
      os << "\n";
    }
    return llvm::Error::success();
  };
  if (path == "-") {
    llvm::Error err = print(llvm::outs());
    llvm::outs().flush();
    return err;
  }

  auto temp = llvm::sys::fs::TempFile::create(path + "-%%%%%%.tmp");
  if (!temp)
    return llvm::createStringError("cannot write '" + path +
                                   "': " + llvm::toString(temp.takeError()));
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    if (llvm::Error err = print(os)) {
      llvm::consumeError(temp->discard());
      return err;
    }
    os.flush();
    if (os.has_error()) {
      std::string reason = os.error().message();
      os.clear_error();
      llvm::consumeError(temp->discard());
      return llvm::createStringError("cannot write '" + path + "': " + reason);
    }
  }
  if (llvm::Error err = temp->keep(path))
    return llvm::createStringError("cannot write '" + path +
                                   "': " + llvm::toString(std::move(err)));
  return llvm::Error::success();
}

llvm::Error kiln::compileFile(MLIRContext &context,
                              const CompileRequest &request,
                              const PipelineOptions &options,
                              PluginSession *session) {
  if (request.compileFrom && *request.compileFrom >= request.compileTo)
    return llvm::createStringError(
        "nothing to do: --compile-from=" + getPhaseName(*request.compileFrom) +
        " resumes after the phase --compile-to=" +
        getPhaseName(request.compileTo) +
        " stops at; pick a later --compile-to");

  if (llvm::Error error = verifyPipelineOptions(options))
    return error;

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(request.inputFile, &message);
  if (!input)
    return llvm::createStringError("cannot read input file '" +
                                   request.inputFile + "': " + message);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler printer(sourceMgr, &context,
                                     request.diagnostics ? *request.diagnostics
                                                         : llvm::errs());

  bool sawUnknownOp = false;
  OwningOpRef<ModuleOp> module = parseInput(context, sourceMgr, sawUnknownOp);
  if (!module) {
    std::string error = "cannot load '" + request.inputFile + "': ";
    if (sawUnknownOp)
      error += "it uses an op Kiln does not know. Kiln reads programs in "
               "the func, arith, math, linalg, tensor, scf and tosa "
               "dialects (and, with --compile-from, Kiln's own IR); convert "
               "other dialects to these first";
    else
      error += "it is not valid MLIR (see the errors above)";
    return llvm::createStringError(error);
  }

  if (session) {
    session->requestFromModule(*module);
    if (llvm::Error error = session->activate())
      return error;
    if (llvm::Error error = session->checkDialectsOfInactivePlugins(*module))
      return error;
    session->makeCurrent();
  }

  // Catch bad target options before running anything (after activation:
  // plugins add targets).
  if (request.compileTo >= Phase::ExecutableSources) {
    auto targets = resolveTargets(&context, options.target);
    if (!targets)
      return targets.takeError();
  }
  // The session adds its plugins' passes and tuning specs to the phases.
  PipelineHooks *hooks = session;

  for (Phase phase : getAllPhases()) {
    if (request.compileFrom && phase <= *request.compileFrom)
      continue;
    if (phase > request.compileTo)
      break;
    PassManager pm(&context, ModuleOp::getOperationName());
    if (failed(applyPassManagerCLOptions(pm)))
      return llvm::createStringError("invalid pass manager options");
    populatePhasePasses(pm, phase, options, hooks);
    if (failed(pm.run(*module)))
      return llvm::createStringError("compilation of '" + request.inputFile +
                                     "' failed in phase '" +
                                     getPhaseName(phase) + "'");
  }

  if (request.compileTo == Phase::Serialization)
    return writeSharedObject(*module, request.outputFile);
  return writeOutput(*module, request.outputFile, request.emitBytecode);
}
