//===- CompileDriver.cpp - Compile one file through the phases ------------===//
//
// Reads the input, runs the requested phases one pass manager per phase (so
// a failure names its phase) and writes the output through OutputFile:
// only on success, atomically, and never over anything but the output.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Serialization/Passes.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/Support/WriteFile.h"
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
  if (failed(checkNesting(sourceMgr, &context)))
    return nullptr;
  return parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
}

/// Prints `module` as text or bytecode.
static llvm::Error printModule(ModuleOp module, llvm::raw_ostream &os,
                               bool bytecode) {
  if (bytecode) {
    if (failed(writeBytecodeToFile(module, os)))
      return llvm::createStringError("failed to write bytecode");
    return llvm::Error::success();
  }
  module.print(os);
  os << "\n";
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

  // Open the output first: a path that cannot be written (a folder, the
  // input itself) fails before any work. Nothing appears there until the
  // compile succeeds.
  bool toSharedObject = request.compileTo == Phase::Serialization;
  std::unique_ptr<OutputFile> output;
  if (request.outputFile != "-") {
    auto opened = openOutputFile(request.outputFile, {request.inputFile});
    if (!opened)
      return opened.takeError();
    output = std::move(*opened);
  }

  std::string message;
  if (request.inputFile != "-" &&
      !checkReadableFile(request.inputFile, message))
    return llvm::createStringError("cannot read input file '" +
                                   request.inputFile + "': " + message);
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

  if (toSharedObject && !output)
    return llvm::createStringError(
        "a shared object cannot be written to standard output; pass -o FILE");

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

  if (toSharedObject)
    return writeSharedObject(*module, *output);
  auto print = [&](llvm::raw_ostream &os) {
    return printModule(*module, os, request.emitBytecode);
  };
  if (!output) {
    llvm::Error error = print(llvm::outs());
    llvm::outs().flush();
    return error;
  }
  return writeAndCommit(*output, print);
}
