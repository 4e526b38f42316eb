//===- CompileDriver.cpp - Compile one file through the phases ------------===//
//
// Reads the input, runs the requested phases in one pass manager (a marker
// pass at the start of each, so a failure names its phase) and writes the
// output through OutputFile:
// only on success, atomically, and never over anything but the output.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/CompileDriver.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Files/FilesRead.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Input/Importer.h"
#include "kiln/Instrumentation/CompileCancellation.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Serialization/Passes.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/Support/WriteFile.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace kiln;

namespace {
/// The compiler crashed and the crash was caught: the IR it worked on may
/// be half rewritten, and is not to be touched again.
class CompilerCrash : public llvm::ErrorInfo<CompilerCrash> {
public:
  static char ID;
  explicit CompilerCrash(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string message;
};
char CompilerCrash::ID;
} // namespace

/// Runs `work` on this thread. When it crashes (a signal, from a bug in
/// MLIR or in Kiln: some of MLIR 22's op parsers dereference what they
/// failed to parse), the compile fails with an error that says in which
/// step (`describeStep`, asked after the crash) instead of killing the
/// process; the output is never written. A crash on one of MLIR's worker
/// threads is not caught. Instrumented builds (KILN_SANITIZE) let the
/// sanitizer report the crash instead.
static llvm::Error
runContainingCrashes(llvm::function_ref<std::string()> describeStep,
                     llvm::function_ref<llvm::Error()> work) {
#if LLVM_ADDRESS_SANITIZER_BUILD
  (void)describeStep;
  return work();
#else
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  llvm::Error result = llvm::Error::success();
  if (recovery.RunSafely([&] { result = work(); }))
    return result;
  // `work` was cut short: whatever it set is not to be trusted.
  llvm::consumeError(std::move(result));
  std::string signal = recovery.RetCode > 128
                           ? std::string(strsignal(recovery.RetCode - 128))
                           : "code " + std::to_string(recovery.RetCode);
  return llvm::make_error<CompilerCrash>(
      "the compiler crashed " + describeStep() + " (" + signal +
      "): a bug in MLIR 22 or in Kiln (errors printed before it may still "
      "be real); nothing was written. Please report it with the input");
#endif
}

namespace {
/// Marks where a phase starts in the one pass manager of a compile. It
/// changes nothing; between phases it also keeps the pass manager from
/// merging the last pass of one phase with the first of the next.
class BeginPhasePass
    : public PassWrapper<BeginPhasePass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BeginPhasePass)

  explicit BeginPhasePass(Phase phase)
      : phase(phase),
        argument(("kiln-begin-phase-" + getPhaseName(phase)).str()) {}

  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override {
    return "Where a phase of Kiln's pipeline starts";
  }
  void runOnOperation() override {
    markAllAnalysesPreserved();
    // The caller asked the compile to stop (Python's Ctrl-C).
    if (isCompileCancelled(&getContext())) {
      getOperation()->emitError() << "the compile was interrupted";
      signalPassFailure();
    }
  }

  Phase getPhase() const { return phase; }

private:
  Phase phase;
  std::string argument;
};

/// Follows the pass manager through the phases (their BeginPhasePass),
/// for errors, progress and --kiln-compile-stats.
class PhaseTracker : public PassInstrumentation {
public:
  explicit PhaseTracker(CompileStatistics *statistics)
      : statistics(statistics) {}

  void runBeforePass(Pass *pass, Operation *op) override {
    auto *begin = dyn_cast<BeginPhasePass>(pass);
    if (!begin)
      return;
    current = begin->getPhase();
    if (!statistics)
      return;
    auto module = dyn_cast<ModuleOp>(op);
    size_t executables =
        module ? llvm::range_size(module.getOps<ExecutableOp>()) : 0;
    statistics->beginPhase(getPhaseName(*current), executables);
  }

  /// The phase that runs (or ran last), if any started.
  std::optional<Phase> getCurrentPhase() const { return current; }

private:
  CompileStatistics *statistics;
  std::optional<Phase> current;
};
} // namespace

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
  // MLIR text ends at a NUL for the parser: what follows would be
  // dropped without a word (a file of NULs compiled as an empty module).
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  size_t nul = text.find('\0');
  if (!isBytecode(*buffer) && nul != StringRef::npos) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(text.data() + nul));
    emitError(FileLineColLoc::get(&context, buffer->getBufferIdentifier(), line,
                                  column))
        << "the program contains a NUL byte (at byte " << nul
        << "): MLIR text has none; is this a binary file?";
    return nullptr;
  }
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

llvm::Error kiln::runPhases(ModuleOp module, const PipelineOptions &options,
                            std::optional<Phase> resumeAfter, Phase stopAfter,
                            PipelineHooks *hooks, llvm::StringRef programName,
                            TimingScope *timing) {
  // One pass manager for every phase: --mlir-print-ir-tree-dir numbers the
  // dumps of all phases in order, --mlir-pass-statistics and --mlir-timing
  // print one report.
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  if (failed(applyPassManagerCLOptions(pm)))
    return llvm::createStringError("invalid pass manager options");
  if (timing)
    pm.enableTiming(*timing);
  llvm::ArrayRef<Phase> toRun = getPhasesBetween(resumeAfter, stopAfter);
  if (toRun.empty())
    return llvm::Error::success();
  for (Phase phase : toRun) {
    pm.addPass(std::make_unique<BeginPhasePass>(phase));
    populatePhasePasses(pm, phase, options, hooks);
  }
  auto *statistics = getSessionState<CompileStatistics>(module.getContext());
  auto tracker = std::make_unique<PhaseTracker>(statistics);
  PhaseTracker *phases = tracker.get();
  pm.addInstrumentation(std::move(tracker));
  auto where = [&]() -> std::string {
    std::optional<Phase> phase = phases->getCurrentPhase();
    return phase ? "in phase '" + getPhaseName(*phase).str() + "'"
                 : std::string("before the first phase");
  };
  llvm::Error error = runContainingCrashes(where, [&]() -> llvm::Error {
    if (failed(pm.run(module)))
      return llvm::createStringError("compilation of '" + programName +
                                     "' failed " + where());
    return llvm::Error::success();
  });
  if (statistics)
    statistics->endPhase();
  if (error)
    return error;
  recordPhase(module, toRun.back());
  return llvm::Error::success();
}

/// Fails when the program says it was written after another phase than
/// --compile-from names (or, without --compile-from, after any phase).
static llvm::Error checkResumePoint(ModuleOp module,
                                    const CompileRequest &request) {
  auto recorded =
      module->getAttrOfType<StringAttr>(KilnDialect::getPhaseAttrName());
  if (!recorded)
    return llvm::Error::success();
  llvm::Expected<Phase> written = lookupPhase(recorded.getValue());
  if (!written)
    return llvm::createStringError(
        "'" + request.inputFile + "' has '" + KilnDialect::getPhaseAttrName() +
        "' = \"" + recorded.getValue() +
        "\", which is no phase: " + llvm::toString(written.takeError()));
  if (request.compileFrom == *written)
    return llvm::Error::success();
  std::string writtenName = recorded.getValue().str();
  if (*written == getAllPhases().back())
    return llvm::createStringError(
        "'" + request.inputFile + "' was written after the last phase ('" +
        writtenName + "'): there is nothing left to run on it");
  return llvm::createStringError(
      "'" + request.inputFile + "' was written after phase '" + writtenName +
      "', " +
      (request.compileFrom
           ? "not after '" + getPhaseName(*request.compileFrom).str() +
                 "' as --compile-from says"
           : std::string("and is not a source program")) +
      "; compile it with --compile-from=" + writtenName);
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
  if (!request.outputBuffer && request.outputFile != "-") {
    auto opened = openOutputFile(request.outputFile, {request.inputFile});
    if (!opened)
      return opened.takeError();
    output = std::move(*opened);
  }

  // A regular file read to its end (a /proc file too), or stdin.
  std::unique_ptr<llvm::MemoryBuffer> input;
  if (request.inputContents) {
    input = llvm::MemoryBuffer::getMemBufferCopy(*request.inputContents,
                                                 request.inputFile);
  } else {
    auto read = readInputFileOrStdin(request.inputFile, "input file");
    if (!read)
      return read.takeError();
    input = std::move(*read);
  }

  // A model format a plugin imports (ONNX), or MLIR.
  std::optional<InputImporter> importer;
  if (session) {
    auto found = session->findImporter(
        input->getBuffer(), options.input.inputType, request.inputFile);
    if (!found)
      return found.takeError();
    importer = std::move(*found);
  }

  llvm::SourceMgr sourceMgr;
  const llvm::MemoryBuffer *inputBuffer = input.get();
  // An imported file is not text: its diagnostics name places in the
  // model, not lines of the file.
  if (!importer)
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler printer(sourceMgr, &context,
                                     request.diagnostics ? *request.diagnostics
                                                         : llvm::errs());

  // --mlir-timing: loading, the passes of every phase, and writing.
  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();
  TimingScope loadTiming = timing.nest("Load the program");

  auto specialization =
      parseInputSpecialization(options.input.inputShapes, options.input.dims);
  if (!specialization)
    return specialization.takeError();
  if (!importer && !specialization->empty())
    return llvm::createStringError(
        "--kiln-input-shape and --kiln-dim give the sizes of a model's "
        "symbolic dimensions, and '" +
        request.inputFile +
        "' is MLIR, whose functions say their sizes themselves");

  bool sawUnknownOp = false;
  OwningOpRef<ModuleOp> module;
  if (importer) {
    if (llvm::Error crashed = runContainingCrashes(
            [&] { return "while importing '" + request.inputFile + "'"; },
            [&]() -> llvm::Error {
              module =
                  importer->import(*inputBuffer, &context, *specialization);
              return llvm::Error::success();
            }))
      return crashed;
    if (!module)
      return llvm::createStringError("cannot import '" + request.inputFile +
                                     "' as " + importer->description +
                                     " (see the errors above)");
  } else if (llvm::Error crashed = runContainingCrashes(
                 [&] { return "while parsing '" + request.inputFile + "'"; },
                 [&]() -> llvm::Error {
                   module = parseInput(context, sourceMgr, sawUnknownOp);
                   return llvm::Error::success();
                 })) {
    return crashed;
  }
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

  loadTiming.stop();
  if (llvm::Error error = checkResumePoint(*module, request))
    return error;

  if (session)
    if (llvm::Error error = session->beginCompile(*module))
      return error;

  if (toSharedObject && !output && !request.outputBuffer)
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

  if (llvm::Error error =
          runPhases(*module, options, request.compileFrom, request.compileTo,
                    hooks, request.inputFile, &timing)) {
    if (error.isA<CompilerCrash>())
      (void)module.release(); // half rewritten: not even to be destroyed
    return error;
  }

  // The output opened before any work refused the input; what else the
  // compile read (external data, objects, specs, plugins) is known now.
  if (output) {
    if (FilesRead *files = getSessionState<FilesRead>(&context)) {
      if (session)
        for (const RegisteredPlugin *plugin : session->getActivePlugins())
          if (plugin->source != "static")
            files->note(plugin->source,
                        "plugin '" + plugin->description.id + "'");
      if (std::optional<std::string> read = files->find(output->getPath()))
        return llvm::createStringError(
            "cannot write '" + output->getPath() + "': it is " + *read +
            ", which the compile read; name another output");
    }
  }

  TimingScope writeTiming = timing.nest(
      toSharedObject ? "Host code to object code, link and write" : "Write");
  if (toSharedObject && request.outputBuffer) {
    auto bytes = buildSharedObject(*module, request.inputFile);
    if (!bytes)
      return bytes.takeError();
    *request.outputBuffer = std::move(*bytes);
    return llvm::Error::success();
  }
  if (toSharedObject)
    return writeSharedObject(*module, *output);
  auto print = [&](llvm::raw_ostream &os) {
    return printModule(*module, os, request.emitBytecode);
  };
  if (request.outputBuffer) {
    request.outputBuffer->clear();
    llvm::raw_string_ostream os(*request.outputBuffer);
    return print(os);
  }
  if (!output) {
    llvm::Error error = print(llvm::outs());
    llvm::outs().flush();
    return error;
  }
  return writeAndCommit(*output, print);
}
