//===- Executor.cpp - Running candidate jobs here -------------------------===//
//
// What every executor shares (a tool's run described, a job's arguments
// expanded) and the local executor: a batch's compiles on all cores, then
// its checks and benchmarks one at a time, so that no compile of ours
// runs beside a benchmark.
//
//===----------------------------------------------------------------------===//

#include "kiln/Tuner/Executor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <mutex>
#include <thread>

using namespace kiln;

ToolRun kiln::describeToolRun(llvm::StringRef argv0, ProcessResult result,
                              const ProcessLimits &limits) {
  ToolRun run;
  run.ok = result.succeeded();
  run.timedOut = result.timedOut;
  run.output = std::move(result.output);
  run.errors = std::move(result.errorOutput);
  if (!run.ok) {
    run.failure = llvm::sys::path::filename(argv0).str() + " " +
                  result.describeFailure(limits);
    llvm::StringRef first = llvm::StringRef(run.errors).trim();
    if (!first.empty())
      run.failure += ": " + first.split('\n').first.str();
  }
  return run;
}

ToolRun kiln::runTool(const std::vector<std::string> &argv,
                      std::chrono::milliseconds timeout) {
  ProcessLimits limits;
  limits.timeout = timeout;
  llvm::Expected<ProcessResult> result = runProcess(argv, "", limits);
  if (!result) {
    ToolRun run;
    run.failure = llvm::toString(result.takeError());
    return run;
  }
  return describeToolRun(argv.front(), std::move(*result), limits);
}

std::optional<llvm::json::Object>
kiln::parseLastJsonObject(llvm::StringRef output) {
  llvm::StringRef last = output.trim().rsplit('\n').second;
  if (last.empty())
    last = output.trim();
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(last);
  if (!json) {
    llvm::consumeError(json.takeError());
    return std::nullopt;
  }
  if (llvm::json::Object *object = json->getAsObject())
    return std::move(*object);
  return std::nullopt;
}

bool kiln::stepSucceeded(const JobStep &step, const ToolRun &run) {
  return run.ok && (step.mustReport.empty() ||
                    run.errors.find(step.mustReport) != std::string::npos);
}

std::vector<std::string>
kiln::expandJobArguments(const std::vector<std::string> &argv,
                         const std::map<std::string, std::string> &paths) {
  std::vector<std::string> expanded;
  for (const std::string &argument : argv) {
    std::string result;
    size_t at = 0;
    while (at < argument.size()) {
      size_t open = argument.find('{', at);
      size_t close =
          open == std::string::npos ? open : argument.find('}', open);
      if (close == std::string::npos) {
        result += argument.substr(at);
        break;
      }
      // Braces that name no file of the job (a pass option) stay.
      auto it = paths.find(argument.substr(open + 1, close - open - 1));
      result += argument.substr(at, open - at);
      result += it == paths.end() ? argument.substr(open, close - open + 1)
                                  : it->second;
      at = close + 1;
    }
    expanded.push_back(std::move(result));
  }
  return expanded;
}

CandidateExecutor::~CandidateExecutor() = default;

namespace {
class LocalExecutor : public CandidateExecutor {
public:
  LocalExecutor(std::string folder, unsigned compileJobs)
      : folder(std::move(folder)), compileJobs(compileJobs) {}

  llvm::Error run(llvm::ArrayRef<CandidateJob> jobs,
                  llvm::function_ref<void(size_t, CandidateRun)> done) override;

  std::string describe() const override {
    return "local (" + std::to_string(compileJobs) +
           " compiles at once, then one benchmark at a time)";
  }

private:
  /// Runs `step` of a job whose files are at `paths`.
  static ToolRun runStep(const JobStep &step,
                         const std::map<std::string, std::string> &paths);

  std::string folder;
  unsigned compileJobs;
};
} // namespace

ToolRun
LocalExecutor::runStep(const JobStep &step,
                       const std::map<std::string, std::string> &paths) {
  std::vector<std::string> argv = expandJobArguments(step.argv, paths);
  llvm::Expected<std::string> tool = findProgram(argv.front());
  if (!tool) {
    ToolRun run;
    run.failure = llvm::toString(tool.takeError());
    return run;
  }
  argv.front() = *tool;
  return runTool(argv, step.timeout);
}

llvm::Error
LocalExecutor::run(llvm::ArrayRef<CandidateJob> jobs,
                   llvm::function_ref<void(size_t, CandidateRun)> done) {
  // Each job's files: its inputs, and its module here.
  std::vector<std::map<std::string, std::string>> paths;
  for (const CandidateJob &job : jobs) {
    std::map<std::string, std::string> files = job.inputs;
    if (!job.compile.empty()) {
      llvm::SmallString<256> module(folder);
      llvm::sys::path::append(module, job.name + ".so");
      files["module.so"] = std::string(module);
    }
    paths.push_back(std::move(files));
  }

  // 1. The compiles, on all cores.
  std::vector<CandidateRun> runs(jobs.size());
  std::atomic<size_t> next{0};
  auto compileSome = [&] {
    for (size_t i = next++; i < jobs.size(); i = next++)
      if (!jobs[i].compile.empty()) {
        auto start = std::chrono::steady_clock::now();
        runs[i].compile = runStep(jobs[i].compile, paths[i]);
        runs[i].compileSeconds = std::chrono::duration<double>(
                                     std::chrono::steady_clock::now() - start)
                                     .count();
      }
  };
  std::vector<std::thread> threads;
  unsigned count = std::min<size_t>(std::max(compileJobs, 1u), jobs.size());
  for (unsigned t = 1; t < count; ++t)
    threads.emplace_back(compileSome);
  compileSome();
  for (std::thread &thread : threads)
    thread.join();

  // 2. Check and time, one at a time.
  for (size_t i = 0; i < jobs.size(); ++i) {
    const CandidateJob &job = jobs[i];
    CandidateRun &run = runs[i];
    run.worker = "local";
    bool compiled = !run.compile || stepSucceeded(job.compile, *run.compile);
    if (compiled && !job.check.empty()) {
      run.check = runStep(job.check, paths[i]);
      compiled = stepSucceeded(job.check, *run.check);
    }
    if (compiled && !job.time.empty())
      run.time = runStep(job.time, paths[i]);
    if (run.compile)
      llvm::sys::fs::remove(paths[i]["module.so"]);
    done(i, std::move(run));
  }
  return llvm::Error::success();
}

std::unique_ptr<CandidateExecutor>
kiln::createLocalExecutor(const std::string &folder, unsigned compileJobs) {
  if (compileJobs == 0)
    compileJobs = std::max(1u, std::thread::hardware_concurrency());
  return std::make_unique<LocalExecutor>(folder, compileJobs);
}
