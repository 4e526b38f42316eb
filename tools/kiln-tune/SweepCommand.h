//===- SweepCommand.h - kiln-tune sweep -------------------------*- C++ -*-===//

#ifndef KILN_TOOLS_KILN_TUNE_SWEEPCOMMAND_H
#define KILN_TOOLS_KILN_TUNE_SWEEPCOMMAND_H

#include "TuningProgram.h"
#include "mlir/IR/MLIRContext.h"

#include <string>
#include <vector>

namespace kiln {

struct SweepOptions {
  std::string program;  // the source program
  std::string dispatch; // --dispatch: the executable to sweep
  std::string database; // --db: where measurements go (optional)
  std::string workDir;  // --work-dir: where files go (default: a temporary
                        // folder, removed)
  size_t limit = 64;    // --limit: candidates, the baseline not counted
  unsigned baselineEvery = 8; // re-measure the baseline this often
  EvaluationSettings settings;
  ExecutorOptions executor;
};

/// kiln-tune sweep: measures every config of one dispatch's space (up to
/// the limit), the baseline among them. Returns the exit status.
int runSweepCommand(mlir::MLIRContext &context, const SweepOptions &options);

} // namespace kiln

#endif // KILN_TOOLS_KILN_TUNE_SWEEPCOMMAND_H
