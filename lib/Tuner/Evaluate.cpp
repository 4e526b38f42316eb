//===- Evaluate.cpp - Compiling, checking and timing one candidate --------===//

#include "kiln/Tuner/Evaluate.h"
#include "kiln/ExecutablePreprocessing/Process.h"
#include "kiln/Support/Version.h"
#include "kiln/Support/WriteFile.h"
#include "kiln/Tuner/SpecWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace kiln;

/// `value` as a flag's number: "%g".
static std::string formatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

static std::string join(const std::string &folder, const std::string &name) {
  llvm::SmallString<256> path(folder);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

/// The Measurement fields every record of `bench` has.
static Measurement startMeasurement(const std::string &key,
                                    const std::string &workload,
                                    const EvaluationSettings &settings) {
  Measurement m;
  m.key = key;
  m.workload = workload;
  m.cpu = settings.cpu;
  m.features = settings.features;
  m.buildId = KILN_BUILD_ID;
  m.machine = getMachineDescription();
  m.date = getCurrentDate();
  return m;
}

llvm::Expected<DispatchBench>
DispatchBench::prepare(const ProgramDispatch &dispatch,
                       const std::string &folder,
                       const EvaluationSettings &settings) {
  if (!dispatch.standalone)
    return llvm::createStringError("dispatch " + dispatch.executable +
                                   " cannot be tuned: " + dispatch.whyNot);
  DispatchBench bench;
  bench.key = dispatch.key;
  bench.workload = dispatch.summary;
  if (dispatch.config)
    llvm::raw_string_ostream(bench.baselineConfig) << dispatch.config;
  bench.folder = folder;
  bench.settings = settings;
  std::string compiler, runner;
  for (auto [tool, path] :
       {std::pair{"kiln-compile", &compiler}, std::pair{"kiln-run", &runner}}) {
    llvm::Expected<std::string> found = findProgram(tool);
    if (!found)
      return found.takeError();
    *path = *found;
  }
  if (std::error_code error = llvm::sys::fs::create_directories(folder))
    return llvm::createStringError("cannot create '" + folder +
                                   "': " + error.message());
  bench.program = join(folder, "dispatch.mlir");
  if (llvm::Error error = kiln::writeFile(bench.program, [&](auto &os) {
        dispatch.standalone.get()->print(os);
        return llvm::Error::success();
      }))
    return std::move(error);

  // The baseline, and the outputs every candidate must reproduce.
  bench.baselineModule = join(folder, "baseline.so");
  std::vector<std::string> compile = {compiler, bench.program, "-o",
                                      bench.baselineModule};
  llvm::append_range(compile, settings.compileFlags);
  ToolRun compiled = runTool(compile, settings.compileTimeout);
  if (!compiled.ok)
    return llvm::createStringError("the baseline of " + dispatch.executable +
                                   " does not compile: " + compiled.failure);
  // One output per result of @main.
  std::vector<std::string> run = {runner, bench.baselineModule,
                                  "--random-inputs", "--print-max=0"};
  mlir::ModuleOp standalone = dispatch.standalone.get();
  auto main = standalone.lookupSymbol<mlir::func::FuncOp>("main");
  for (unsigned i = 0; i < main.getNumResults(); ++i) {
    std::string name = "expected_" + std::to_string(i) + ".npy";
    std::string output = join(folder, name);
    run.push_back("--output=@" + output);
    bench.expectedOutputs[name] = output;
  }
  ToolRun ran = runTool(run, settings.runTimeout);
  if (!ran.ok)
    return llvm::createStringError("the baseline of " + dispatch.executable +
                                   " does not run: " + ran.failure);
  return bench;
}

/// The step running Kiln tool `tool` with `arguments` under `timeout`.
static JobStep makeStep(const char *tool, std::vector<std::string> arguments,
                        std::chrono::milliseconds timeout) {
  JobStep step;
  step.argv = {tool};
  llvm::append_range(step.argv, arguments);
  step.timeout = timeout;
  return step;
}

llvm::Expected<CandidateJob> DispatchBench::makeJob(LoweringConfigAttr config,
                                                    std::string &configText) {
  CandidateJob job;
  std::vector<std::string> benchmark = {
      "{module.so}", "--json", "--warmup=" + std::to_string(settings.warmup),
      "--repetitions=" + std::to_string(settings.repetitions)};
  if (settings.threads > 0)
    benchmark.push_back("--threads=" + std::to_string(settings.threads));
  job.time = makeStep("kiln-benchmark", benchmark, settings.runTimeout);
  if (!config) {
    configText = baselineConfig;
    job.name = "baseline";
    job.inputs["module.so"] = baselineModule;
    return job;
  }
  llvm::raw_string_ostream(configText) << config;
  job.name = "candidate_" + std::to_string(candidates++);
  std::string spec = join(folder, job.name + ".spec.mlir");
  if (llvm::Error error = kiln::writeFile(spec, [&](auto &os) {
        os << writeTuningSpec({{key, workload, configText, "candidate"}}, {});
        return llvm::Error::success();
      }))
    return std::move(error);
  job.inputs = expectedOutputs;
  job.inputs["dispatch.mlir"] = program;
  job.inputs["candidate.spec.mlir"] = spec;
  std::vector<std::string> compile = {
      "{dispatch.mlir}", "-o", "{module.so}",
      "--kiln-tuning-spec={candidate.spec.mlir}", "--kiln-explain-tuning"};
  llvm::append_range(compile, settings.compileFlags);
  llvm::append_range(compile, settings.candidateFlags);
  job.compile = makeStep("kiln-compile", compile, settings.compileTimeout);
  job.compile.mustReport = "configured by user spec";
  // Its numbers before its time: a fast wrong answer is no candidate.
  std::vector<std::string> check = {"{module.so}", "--random-inputs",
                                    "--print-max=0",
                                    "--rtol=" + formatNumber(settings.rtol),
                                    "--atol=" + formatNumber(settings.atol)};
  for (const auto &[name, path] : expectedOutputs)
    check.push_back("--expected-output=@{" + name + "}");
  job.check = makeStep("kiln-run", check, settings.runTimeout);
  return job;
}

Measurement DispatchBench::interpret(const CandidateJob &job,
                                     const std::string &config,
                                     CandidateRun run) const {
  Measurement m = startMeasurement(key, workload, settings);
  m.config = config;
  m.baseline = job.compile.empty();
  m.worker = run.worker;
  if (!run.machine.empty())
    m.machine = run.machine;
  m.compileStatus = "ok";
  if (run.compile) {
    m.compileSeconds = run.compileSeconds;
    if (!stepSucceeded(job.compile, *run.compile)) {
      m.compileStatus = run.compile->timedOut ? "timeout" : "failed";
      m.runStatus = "skipped";
      m.error = run.compile->ok ? "the candidate's spec configured nothing"
                                : run.compile->failure;
      return m;
    }
  }
  if (run.check && !run.check->ok) {
    bool differs = run.check->errors.find("differs from") != std::string::npos;
    m.runStatus = run.check->timedOut ? "timeout"
                  : differs           ? "wrong"
                                      : "failed";
    m.error = run.check->failure;
    return m;
  }
  if (!run.time) {
    m.runStatus = "failed";
    m.error = "it was not timed";
    return m;
  }
  if (!run.time->ok) {
    m.runStatus = run.time->timedOut ? "timeout" : "failed";
    m.error = run.time->failure;
    return m;
  }
  std::optional<llvm::json::Object> json =
      parseLastJsonObject(run.time->output);
  std::optional<double> median =
      json ? json->getNumber("median_ms") : std::nullopt;
  if (!median) {
    m.runStatus = "failed";
    m.error = "kiln-benchmark printed no median";
    return m;
  }
  m.runStatus = "ok";
  m.medianMs = *median;
  m.timesMs = {*median};
  return m;
}

llvm::Error
DispatchBench::measure(llvm::ArrayRef<LoweringConfigAttr> configs,
                       CandidateExecutor &executor,
                       llvm::function_ref<void(size_t, Measurement)> done) {
  std::vector<CandidateJob> jobs;
  std::vector<std::string> texts(configs.size());
  std::vector<size_t> index; // job -> config
  for (size_t i = 0; i < configs.size(); ++i) {
    llvm::Expected<CandidateJob> job = makeJob(configs[i], texts[i]);
    if (!job) {
      Measurement m = startMeasurement(key, workload, settings);
      m.config = texts[i];
      m.compileStatus = "failed";
      m.runStatus = "skipped";
      m.error = llvm::toString(job.takeError());
      done(i, std::move(m));
      continue;
    }
    // Names are unique in a batch: baselines get their index.
    if (!configs[i])
      job->name += "_" + std::to_string(i);
    jobs.push_back(std::move(*job));
    index.push_back(i);
  }
  return executor.run(jobs, [&](size_t j, CandidateRun run) {
    done(index[j], interpret(jobs[j], texts[index[j]], std::move(run)));
  });
}
