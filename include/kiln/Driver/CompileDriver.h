//===- CompileDriver.h - Compile one file through the phases ----*- C++ -*-===//
//
// What kiln-compile does, as a library call: read a file, run the phases
// asked for, write the result atomically.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_COMPILEDRIVER_H
#define KILN_DRIVER_COMPILEDRIVER_H

#include "kiln/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <optional>
#include <string>

namespace kiln {

struct CompileRequest {
  /// The file to read; "-" reads standard input. With `inputContents`, only
  /// the name messages and locations give the program.
  std::string inputFile;
  /// The program itself (MLIR text or bytecode, or a model a plugin
  /// imports), when it does not come from a file.
  std::optional<std::string> inputContents;
  /// The file to write; "-" writes standard output. Written only when
  /// compilation succeeds, and atomically (never half-written). After the
  /// serialization phase it is a shared object, before it MLIR.
  std::string outputFile = "-";
  /// When set, the result goes here instead of to `outputFile`.
  std::string *outputBuffer = nullptr;
  /// The phase the input was produced by (--compile-from); none means the
  /// input is a source program.
  std::optional<Phase> compileFrom;
  /// The last phase to run (--compile-to).
  Phase compileTo = getAllPhases().back();
  /// Write MLIR bytecode instead of text.
  bool emitBytecode = false;
  /// Where diagnostics (errors at a location, with the source line) are
  /// printed; null means standard error.
  llvm::raw_ostream *diagnostics = nullptr;
  /// Where to write what the compile measured as JSON
  /// (--kiln-compile-stats); empty: nowhere.
  std::string statisticsFile;
  /// Show progress on standard error (a tool on a terminal, not --quiet):
  /// after two seconds, the phase and executables done of all.
  bool showProgress = false;
  /// The tool's name, in front of progress.
  std::string tool = "kiln";
  /// When set and it becomes true, the compile stops at the next phase or
  /// executable and fails with "the compile was interrupted" (Python's
  /// Ctrl-C). Owned by the caller, alive until the compile returns.
  std::atomic<bool> *cancel = nullptr;
};

/// Compiles `request.inputFile`. Problems in the IR are reported as
/// diagnostics through `context` (file, line and column); the returned error
/// says what failed (a file that cannot be read or written, bad options, or
/// the phase in which compilation failed).
class PluginSession;

/// Compiles `request.inputFile`. With a `session`, the program's own
/// plugin requests (a `kiln.plugins` module attribute) are added to it once
/// the input is read, the session is activated and made current, and its
/// plugins' hooks take part in every phase.
llvm::Error compileFile(mlir::MLIRContext &context,
                        const CompileRequest &request,
                        const PipelineOptions &options,
                        PluginSession *session = nullptr);

/// Runs the phases after `resumeAfter` (from the first without one) up to
/// and including `stopAfter` on `module`, in one pass manager with the pass
/// manager's command-line options applied, and records the last phase on
/// the module (`kiln.phase`). Problems in the IR go to the context's
/// diagnostics; the error names the phase that failed and the program
/// (`programName`, such as the input file). Pass timing nests under
/// `timing` when given; phases' times go to the CompileStatistics attached
/// to the context, if any.
llvm::Error runPhases(mlir::ModuleOp module, const PipelineOptions &options,
                      std::optional<Phase> resumeAfter, Phase stopAfter,
                      PipelineHooks *hooks, llvm::StringRef programName,
                      mlir::TimingScope *timing = nullptr);

} // namespace kiln

#endif // KILN_DRIVER_COMPILEDRIVER_H
