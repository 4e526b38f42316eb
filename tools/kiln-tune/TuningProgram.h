//===- TuningProgram.h - What sweep and search share ------------*- C++ -*-===//
//
// The work folder of a tuning command, the program compiled to
// executable-configurations with its dispatches, and each dispatch's
// target CPU.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TUNE_TUNINGPROGRAM_H
#define KILN_TOOLS_KILN_TUNE_TUNINGPROGRAM_H

#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Tuner/Evaluate.h"
#include "kiln/Tuner/ExtractDispatch.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// Where a tuning command keeps its files: the folder given, or a
/// temporary one it removes when done. TMPDIR points into it, so what the
/// tools leave for inspection (a failed preprocessing tool's input) goes
/// with the rest.
class TuningWork {
public:
  static llvm::Expected<TuningWork> create(const std::string &folder);
  TuningWork(TuningWork &&other);
  TuningWork(const TuningWork &) = delete;
  ~TuningWork();
  std::string file(const std::string &name) const;
  const std::string &getPath() const { return path; }

private:
  TuningWork() = default;
  std::string path;
  bool owned = false;
};

/// Where candidates run: a Dask scheduler, or here.
struct ExecutorOptions {
  std::string scheduler;    // --scheduler: address or scheduler file
  unsigned compileJobs = 0; // --compile-jobs, here (0: one per core)
};

/// The executor `options` ask for, timing on `cpu`.
llvm::Expected<std::unique_ptr<CandidateExecutor>>
createExecutor(const ExecutorOptions &options, const std::string &cpu,
               const TuningWork &work);

struct ConfiguredProgram {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::vector<ProgramDispatch> dispatches;
};

/// Runs kiln-compile on `program` with `arguments` and `settings`' compile
/// flags, under its compile timeout; the error carries the compiler's.
llvm::Error compileProgram(const std::string &program,
                           const std::vector<std::string> &arguments,
                           const EvaluationSettings &settings);

/// Compiles `program` to executable-configurations with `settings`'
/// compile flags, in `work`, and collects its dispatches.
llvm::Expected<ConfiguredProgram>
compileToConfigurations(mlir::MLIRContext &context, const std::string &program,
                        const EvaluationSettings &settings,
                        const TuningWork &work);

/// The CPU `executable`'s first variant targets; sets the records' CPU
/// name and features in `settings`.
std::optional<CPUTargetInfo> getDispatchTarget(mlir::ModuleOp program,
                                               llvm::StringRef executable,
                                               EvaluationSettings &settings);

/// The median of `values` (0 for none), and their spread: (max - min) /
/// median.
double getMedian(std::vector<double> values);
double getSpread(const std::vector<double> &values);

/// Appends `m` to the tuning database at `database` (nothing when it is
/// empty); false, said on stderr, when it cannot.
bool recordMeasurement(const std::string &database, const Measurement &m);

/// "kiln-tune: error: MESSAGE" on stderr; returns 1.
int failCommand(const llvm::Twine &message);

} // namespace kiln

#endif // KILN_TOOLS_KILN_TUNE_TUNINGPROGRAM_H
