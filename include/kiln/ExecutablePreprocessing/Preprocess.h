//===- Preprocess.h - Executables through pipelines and tools ---*- C++ -*-===//
//
// Executable preprocessing: at the end of the executable-sources phase,
// every kiln.executable goes through a list of commands, each a pass
// pipeline run in-process (`builtin.module(...)`) or an external program
// that reads the executable on stdin and writes its replacement to stdout.
// Executables are processed in parallel, with a bound on concurrent tool
// processes, a timeout and an output cap per process; a failure is an
// error at the executable that names the command, says how it failed,
// shows the start of the tool's stderr and keeps the input that
// reproduces it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_EXECUTABLEPREPROCESSING_PREPROCESS_H
#define KILN_EXECUTABLEPREPROCESSING_PREPROCESS_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln {

class OptionsBinder;

struct ExecutablePreprocessingOptions {
  /// Applied in order to every executable.
  std::vector<std::string> commands;
  /// What an external tool receives: "text", "generic" (generic op form,
  /// for tools that do not know Kiln's dialect and use
  /// --allow-unregistered-dialect) or "bytecode".
  std::string format = "text";
  /// At most this many tool processes at once; 0: the number of cores.
  unsigned jobs = 0;
  /// Seconds after which a tool is killed with its process group.
  double timeoutSeconds = 300;
  /// A tool that prints more than this many bytes is killed.
  uint64_t maxOutputBytes = 256u << 20;
  /// When set, a tool's result is kept in this folder under a key of the
  /// format, the command, the tool's file (path, size, time) and the
  /// executable, and reused instead of running the tool again.
  std::string cacheDir;

  // Reproducers.
  /// When set, every executable is written here as `<name>.sources.mlir`
  /// (before preprocessing), `<name>.preprocessed.mlir` (after it and the
  /// substitutions) and `<name>.configured.mlir` (after configuration).
  std::string dumpDir;
  /// `NAME=FILE`: after preprocessing, executable NAME is replaced with the
  /// one in FILE.
  std::vector<std::string> substitutions;

  /// Binds the --kiln-preprocess-executables-*, --kiln-dump-executables-to
  /// and --kiln-substitute-executable flags (Options.cpp).
  void bindOptions(OptionsBinder &binder);
};

/// Fails when an option is unusable: a pipeline that does not parse, a
/// command that does not split or whose program is not found, an unknown
/// format, a timeout that is not positive.
llvm::Error
verifyExecutablePreprocessingOptions(const ExecutablePreprocessingOptions &);

/// The pass (on the program's module) that preprocesses every executable.
std::unique_ptr<mlir::Pass>
createPreprocessExecutablesPass(ExecutablePreprocessingOptions options);

/// Writes every executable of the module to `dir` as `<name>.<stage>.mlir`.
std::unique_ptr<mlir::Pass> createDumpExecutablesPass(std::string dir,
                                                      std::string stage);

/// Replaces executables with the ones in files (`NAME=FILE` specs).
std::unique_ptr<mlir::Pass>
createSubstituteExecutablesPass(std::vector<std::string> specs);

} // namespace kiln

#endif // KILN_EXECUTABLEPREPROCESSING_PREPROCESS_H
