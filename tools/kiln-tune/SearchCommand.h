//===- SearchCommand.h - kiln-tune search -----------------------*- C++ -*-===//

#ifndef KILN_TOOLS_KILN_TUNE_SEARCHCOMMAND_H
#define KILN_TOOLS_KILN_TUNE_SEARCHCOMMAND_H

#include "TuningProgram.h"
#include "mlir/IR/MLIRContext.h"

#include <string>

namespace kiln {

struct SearchOptions {
  std::string program;      // the source program
  std::string output;       // -o: the spec to write
  std::string database;     // --db: measurements read and appended (optional)
  std::string workDir;      // --work-dir (default: a temporary folder, removed)
  double coverage = 0.9;    // tune dispatches until this share of the time
  size_t maxDispatches = 8; // at most this many
  size_t maxCandidates = 128; // measured per dispatch
  double margin = 0.03;       // faster than the baseline by at least this
  unsigned baselineEvery = 8;
  double timeBudget = 900; // --time-budget: seconds for the whole search
  EvaluationSettings settings;
  ExecutorOptions executor;
  std::string commandLine; // how it was run, for the spec's comments
};

/// kiln-tune search: profiles the program, tunes the dispatches that take
/// most of its time by coordinate descent over their config spaces, writes
/// a spec of the configs that beat the baseline by more than the margin
/// and the noise measured, and times the program with and without it.
/// Returns the exit status.
int runSearchCommand(mlir::MLIRContext &context, const SearchOptions &options);

} // namespace kiln

#endif // KILN_TOOLS_KILN_TUNE_SEARCHCOMMAND_H
