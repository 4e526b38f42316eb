//===- Evaluate.h - Compiling, checking and timing candidates ---*- C++ -*-===//
//
// How the autotuner measures a config on a dispatch: the dispatch's
// stand-alone program is compiled with a one-entry spec setting the config
// (kiln-compile, which must say that the spec configured it), run on
// reproducible random inputs and compared with the baseline's outputs
// (kiln-run --random-inputs --expected-output), and timed (kiln-benchmark
// --json). DispatchBench makes each candidate a CandidateJob, a batch of
// which an executor (Executor.h) runs here or on a cluster, each tool under
// a timeout, and reads every report into a Measurement, whatever happened.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNER_EVALUATE_H
#define KILN_TUNER_EVALUATE_H

#include "kiln/Tuner/Database.h"
#include "kiln/Tuner/Executor.h"
#include "kiln/Tuner/ExtractDispatch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <string>
#include <vector>

namespace kiln {

struct EvaluationSettings {
  /// For every compile: the target CPU and anything else the program
  /// needs (`--kiln-target-cpu=znver3`, ...).
  std::vector<std::string> compileFlags;
  /// For the candidates' compiles only (a tool chain under test).
  std::vector<std::string> candidateFlags;
  /// For compiling the program being tuned only, not its dispatches: the
  /// sizes of its dynamic inputs (`--kiln-input-shape=x:1x3x640x640`,
  /// `--kiln-dim=N=1`), which the dispatches then have.
  std::vector<std::string> programFlags;
  std::chrono::milliseconds compileTimeout{std::chrono::seconds(300)};
  std::chrono::milliseconds runTimeout{std::chrono::seconds(60)};
  int warmup = 3, repetitions = 20, threads = 0;
  double rtol = 1e-3, atol = 1e-5;
  std::string cpu, features; // what the records say the target is
};

/// One dispatch ready to measure configs on: its stand-alone program
/// written, compiled the compiler's own way (the baseline) and run once
/// for the outputs the candidates must reproduce.
class DispatchBench {
public:
  /// Prepares `dispatch` in `folder` (created; the caller removes it).
  static llvm::Expected<DispatchBench>
  prepare(const ProgramDispatch &dispatch, const std::string &folder,
          const EvaluationSettings &settings);

  /// Measures each of `configs` (null: the baseline again) as one batch
  /// of `executor`, calling `done(index, measurement)` as each ends; fails
  /// only when the executor does.
  llvm::Error measure(llvm::ArrayRef<LoweringConfigAttr> configs,
                      CandidateExecutor &executor,
                      llvm::function_ref<void(size_t, Measurement)> done);

  const std::string &getKey() const { return key; }
  const std::string &getWorkload() const { return workload; }
  const std::string &getBaselineConfig() const { return baselineConfig; }

private:
  DispatchBench() = default;
  /// The job measuring `config` (null: the baseline), its spec written to
  /// `folder`; or why there is none.
  llvm::Expected<CandidateJob> makeJob(LoweringConfigAttr config,
                                       std::string &configText);
  /// What `run` of `job` says about the config, as a record.
  Measurement interpret(const CandidateJob &job, const std::string &config,
                        CandidateRun run) const;

  std::string key, workload, baselineConfig;
  std::string folder, program, baselineModule;
  /// The baseline's outputs, the check's "expected_N.npy" files.
  std::map<std::string, std::string> expectedOutputs;
  EvaluationSettings settings;
  unsigned candidates = 0;
};

} // namespace kiln

#endif // KILN_TUNER_EVALUATE_H
