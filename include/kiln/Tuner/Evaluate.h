//===- Evaluate.h - Compiling, checking and timing one candidate -*- C++
//-*-===//
//
// How the autotuner measures a config on a dispatch: the dispatch's
// stand-alone program is compiled with a one-entry spec setting the config
// (kiln-compile, which must say that the spec configured it), run on
// reproducible random inputs and compared with the baseline's outputs
// (kiln-run --random-inputs --expected-output), and timed (kiln-benchmark
// --json). Each tool runs under a timeout, with everything it starts
// killed when it ends (the preprocessing tools' supervisor). The result is
// a Measurement, whatever happened.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNER_EVALUATE_H
#define KILN_TUNER_EVALUATE_H

#include "kiln/Tuner/Database.h"
#include "kiln/Tuner/ExtractDispatch.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <string>
#include <vector>

namespace kiln {

/// A Kiln tool's run under a timeout: what it printed, or why it did not
/// finish ("kiln-compile timed out after 20.00 s and was killed", "kiln-run
/// exited with status 1: FIRST LINE OF ITS ERRORS").
struct ToolRun {
  bool ok = false;
  bool timedOut = false;
  std::string output, errors, failure;
};

/// Runs `argv` (argv[0] a path) under `timeout`, with everything it starts
/// killed when it ends (runProcess).
ToolRun runTool(const std::vector<std::string> &argv,
                std::chrono::milliseconds timeout);

/// The JSON object on the last line of `output` (what kiln-benchmark
/// --json prints), or none.
std::optional<llvm::json::Object> parseLastJsonObject(llvm::StringRef output);

struct EvaluationSettings {
  /// For every compile: the target CPU and anything else the program
  /// needs (`--kiln-target-cpu=znver3`, ...).
  std::vector<std::string> compileFlags;
  /// For the candidates' compiles only (a tool chain under test).
  std::vector<std::string> candidateFlags;
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

  /// Measures `config`; null measures the baseline again.
  Measurement measure(LoweringConfigAttr config);

  const std::string &getKey() const { return key; }
  const std::string &getWorkload() const { return workload; }
  const std::string &getBaselineConfig() const { return baselineConfig; }

private:
  DispatchBench() = default;
  /// Times `module` into `m` (run status and times).
  void time(const std::string &module, Measurement &m);

  std::string key, workload, baselineConfig;
  std::string folder, program, baselineModule;
  std::vector<std::string> expectedOutputs; // --expected-output=@...
  std::string compilerPath, runnerPath, benchmarkPath;
  EvaluationSettings settings;
  unsigned candidates = 0;
};

} // namespace kiln

#endif // KILN_TUNER_EVALUATE_H
