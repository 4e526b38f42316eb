//===- DaskExecutor.cpp - Candidates on a Dask cluster --------------------===//
//
// The C++ half of the Dask executor: each batch is one run of the
// kiln-tune-dask bridge under /usr/bin/python3, with the jobs as JSON lines
// on its stdin and one JSON line per job on its stdout. The bridge
// connects to the scheduler, ships the jobs' files, and lets Dask place
// the compiles and benchmarks (see the bridge's own description); what
// comes back is read into the same CandidateRun the local executor makes,
// so that both are judged by the same code.
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/Version.h"
#include "kiln/Tuner/Executor.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace kiln;

static constexpr const char *kPython = "/usr/bin/python3";

namespace {
class DaskExecutor : public CandidateExecutor {
public:
  llvm::Error run(llvm::ArrayRef<CandidateJob> jobs,
                  llvm::function_ref<void(size_t, CandidateRun)> done) override;
  std::string describe() const override { return description; }

  /// The bridge's command line for `command` (probe or run).
  std::vector<std::string> bridgeCommand(const char *command) const {
    return {kPython,           bridge,
            command,           "--scheduler=" + scheduler,
            "--cpu=" + cpu,    "--build=" KILN_BUILD_ID,
            "--tools=" + tools};
  }

  std::string bridge, scheduler, cpu, tools, description;
};
} // namespace

/// The bridge's failure: what it said last on stderr, or how it ended.
static llvm::Error bridgeFailure(const char *what, const ProcessResult &result,
                                 const ProcessLimits &limits) {
  llvm::StringRef errors = llvm::StringRef(result.errorOutput).trim();
  llvm::StringRef said = errors.rsplit('\n').second;
  if (said.empty())
    said = errors;
  said.consume_front("kiln-tune-dask: error: ");
  return llvm::createStringError(
      std::string(what) + ": " +
      (said.empty() ? "the bridge " + result.describeFailure(limits)
                    : said.str()));
}

static llvm::json::Value toJSON(const JobStep &step) {
  llvm::json::Array argv;
  for (const std::string &argument : step.argv)
    argv.push_back(argument);
  return llvm::json::Object{{"argv", std::move(argv)},
                            {"timeout_ms", step.timeout.count()},
                            {"must_report", step.mustReport}};
}

/// A step the bridge reported, as a ToolRun of `step`.
static std::optional<ToolRun> readStep(const llvm::json::Object &report,
                                       llvm::StringRef name,
                                       const JobStep &step) {
  const llvm::json::Object *object = report.getObject(name);
  if (!object)
    return std::nullopt;
  if (std::optional<llvm::StringRef> error = object->getString("error")) {
    ToolRun run;
    run.failure = error->str();
    return run;
  }
  ProcessResult result;
  if (std::optional<int64_t> code = object->getInteger("exit"))
    result.exitCode = *code;
  if (std::optional<int64_t> signal = object->getInteger("signal"))
    result.signal = *signal;
  result.timedOut = object->getBoolean("timed_out").value_or(false);
  result.output = object->getString("output").value_or("").str();
  result.errorOutput = object->getString("errors").value_or("").str();
  ProcessLimits limits;
  limits.timeout = step.timeout;
  return describeToolRun(step.argv.front(), std::move(result), limits);
}

llvm::Error
DaskExecutor::run(llvm::ArrayRef<CandidateJob> jobs,
                  llvm::function_ref<void(size_t, CandidateRun)> done) {
  if (jobs.empty())
    return llvm::Error::success();
  std::string input;
  llvm::raw_string_ostream os(input);
  std::chrono::milliseconds budget = std::chrono::minutes(2);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const CandidateJob &job = jobs[i];
    llvm::json::Object inputs;
    for (const auto &[name, path] : job.inputs)
      inputs[name] = path;
    llvm::json::Object line{{"index", static_cast<int64_t>(i)},
                            {"inputs", std::move(inputs)}};
    for (auto [name, step] :
         {std::pair{"compile", &job.compile}, std::pair{"check", &job.check},
          std::pair{"time", &job.time}})
      if (!step->empty()) {
        line[name] = toJSON(*step);
        budget += step->timeout;
      }
    os << llvm::json::Value(std::move(line)) << "\n";
  }
  // Every step of every job one after another, and some: the bridge gives
  // up itself once no worker is left.
  ProcessLimits limits;
  limits.timeout = budget;
  llvm::Expected<ProcessResult> result =
      runProcess(bridgeCommand("run"), input, limits);
  if (!result)
    return result.takeError();

  std::set<size_t> reported;
  for (llvm::StringRef line :
       llvm::split(llvm::StringRef(result->output), "\n")) {
    if (line.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(line);
    const llvm::json::Object *report = value ? value->getAsObject() : nullptr;
    std::optional<int64_t> index =
        report ? report->getInteger("index") : std::nullopt;
    if (!index || *index < 0 || static_cast<size_t>(*index) >= jobs.size()) {
      if (!value)
        llvm::consumeError(value.takeError());
      return llvm::createStringError("the Dask bridge printed a line that is "
                                     "no job's report: " +
                                     line.take_front(200));
    }
    const CandidateJob &job = jobs[*index];
    CandidateRun run;
    run.compile = readStep(*report, "compile", job.compile);
    run.check = readStep(*report, "check", job.check);
    run.time = readStep(*report, "time", job.time);
    run.compileSeconds = report->getNumber("compile_s").value_or(0);
    run.worker = report->getString("worker").value_or("").str();
    run.machine = report->getString("machine").value_or("").str();
    if (reported.insert(*index).second)
      done(*index, std::move(run));
  }
  if (!result->succeeded())
    return bridgeFailure("the Dask cluster failed", *result, limits);
  if (reported.size() != jobs.size())
    return llvm::createStringError("the Dask bridge reported " +
                                   std::to_string(reported.size()) + " of " +
                                   std::to_string(jobs.size()) + " jobs");
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<CandidateExecutor>>
kiln::createDaskExecutor(const std::string &scheduler, const std::string &cpu) {
  auto executor = std::make_unique<DaskExecutor>();
  executor->scheduler = scheduler;
  executor->cpu = cpu;
  if (!llvm::sys::fs::can_execute(kPython))
    return llvm::createStringError(
        std::string("--scheduler needs ") + kPython +
        " with python3-distributed (apt install python3-distributed)");
  llvm::Expected<std::string> bridge = findProgram("kiln-tune-dask");
  if (!bridge)
    return bridge.takeError();
  executor->bridge = *bridge;
  executor->tools = llvm::sys::path::parent_path(*bridge).str();

  ProcessLimits limits;
  limits.timeout = std::chrono::minutes(2);
  llvm::Expected<ProcessResult> result =
      runProcess(executor->bridgeCommand("probe"), "", limits);
  if (!result)
    return result.takeError();
  if (!result->succeeded())
    return bridgeFailure("--scheduler", *result, limits);
  std::optional<llvm::json::Object> probe = parseLastJsonObject(result->output);
  const llvm::json::Array *workers =
      probe ? probe->getArray("workers") : nullptr;
  if (!workers)
    return llvm::createStringError("--scheduler: the Dask bridge's probe "
                                   "printed no workers");
  unsigned compiling = 0, timing = 0;
  std::set<std::string> hosts;
  for (const llvm::json::Value &worker : *workers)
    if (const llvm::json::Object *w = worker.getAsObject()) {
      compiling += w->getBoolean("compiles").value_or(false);
      if (w->getBoolean("times").value_or(false)) {
        ++timing;
        hosts.insert(w->getString("hostname").value_or("").str());
      }
    }
  executor->description =
      "Dask scheduler " +
      probe->getString("scheduler").value_or(scheduler).str() + ": " +
      std::to_string(compiling) + " of " + std::to_string(workers->size()) +
      " workers compile, " + std::to_string(timing) + " on " +
      std::to_string(hosts.size()) + " machines time on " + cpu;
  return executor;
}
