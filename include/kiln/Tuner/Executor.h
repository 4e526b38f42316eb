//===- Executor.h - Where candidates are compiled and timed -----*- C++ -*-===//
//
// A candidate is three runs of Kiln's tools: kiln-compile (anywhere), then
// kiln-run to check its numbers and kiln-benchmark to time it (on the
// target CPU, one benchmark at a time per machine). A CandidateJob says
// what to run, with "{NAME}" in an argument standing for the path of the
// job's file NAME wherever the step runs; a CandidateExecutor runs a batch
// of jobs and reports each as it ends:
//
// - the local executor compiles a batch on all cores, then checks and
//   times its candidates one at a time with nothing else of ours running;
// - the Dask executor hands the batch to `kiln-tune-dask`, a bridge to a
//   Dask distributed scheduler (Debian's python3-distributed), which
//   compiles on any worker and times on the workers whose CPU is the
//   target's, one benchmark per machine at a time. Dask reruns the tasks
//   of a worker that dies; the measurements are recorded here, by the
//   search, as the bridge reports them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNER_EXECUTOR_H
#define KILN_TUNER_EXECUTOR_H

#include "kiln/ExecutablePreprocessing/Process.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
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

/// What `result` of running tool `argv0` under `limits` says, as a ToolRun.
ToolRun describeToolRun(llvm::StringRef argv0, ProcessResult result,
                        const ProcessLimits &limits);

/// Runs `argv` (argv[0] a path) under `timeout`, with everything it starts
/// killed when it ends (runProcess).
ToolRun runTool(const std::vector<std::string> &argv,
                std::chrono::milliseconds timeout);

/// The JSON object on the last line of `output` (what kiln-benchmark
/// --json prints), or none.
std::optional<llvm::json::Object> parseLastJsonObject(llvm::StringRef output);

/// One tool's run in a job. argv[0] is the tool's name (kiln-compile),
/// found where the step runs; "{NAME}" in an argument is the path of the
/// job's file NAME there.
struct JobStep {
  std::vector<std::string> argv;
  std::chrono::milliseconds timeout{0};
  /// The step succeeded only if its errors hold this too (empty: exit 0
  /// is enough).
  std::string mustReport;
  bool empty() const { return argv.empty(); }
};

/// One candidate: compile (writing the file "module.so"; without it the
/// module is an input), then check, then time. A step runs only when the
/// one before it succeeded.
struct CandidateJob {
  std::string name; // unique in its batch: names the local files
  std::map<std::string, std::string> inputs; // file name -> local path
  JobStep compile, check, time;
};

/// How a job went: the steps that ran, and where it was timed.
struct CandidateRun {
  std::optional<ToolRun> compile, check, time;
  double compileSeconds = 0;
  std::string machine; // where it was timed, when not here ("" here)
  std::string worker;  // "local", or the Dask worker's address
};

/// Whether `run` of `step` succeeded, as the job's next step needs.
bool stepSucceeded(const JobStep &step, const ToolRun &run);

/// "{NAME}" in each of `argv` replaced by `paths`' NAME (other braces
/// stay).
std::vector<std::string>
expandJobArguments(const std::vector<std::string> &argv,
                   const std::map<std::string, std::string> &paths);

class CandidateExecutor {
public:
  virtual ~CandidateExecutor();
  /// Runs `jobs`, calling `done(index, run)` as each ends, in any order.
  /// Fails only when the executor does (the bridge or the scheduler): the
  /// candidates' own failures are in their runs.
  virtual llvm::Error
  run(llvm::ArrayRef<CandidateJob> jobs,
      llvm::function_ref<void(size_t, CandidateRun)> done) = 0;
  /// "local (2 compiles at once)", "Dask scheduler tcp://...: 2 workers"
  virtual std::string describe() const = 0;
};

/// Compiles up to `compileJobs` candidates at once (0: one per core) in
/// `folder`, then checks and times them one at a time.
std::unique_ptr<CandidateExecutor>
createLocalExecutor(const std::string &folder, unsigned compileJobs = 0);

/// Connects to the Dask scheduler at `scheduler` (an address, or a
/// scheduler file) through the kiln-tune-dask bridge, and checks that some
/// worker runs this Kiln build on `cpu`. The bridge runs under
/// /usr/bin/python3.
llvm::Expected<std::unique_ptr<CandidateExecutor>>
createDaskExecutor(const std::string &scheduler, const std::string &cpu);

} // namespace kiln

#endif // KILN_TUNER_EXECUTOR_H
