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

ToolRun kiln::runTool(const std::vector<std::string> &argv,
                      std::chrono::milliseconds timeout) {
  ToolRun run;
  ProcessLimits limits;
  limits.timeout = timeout;
  llvm::Expected<ProcessResult> result = runProcess(argv, "", limits);
  if (!result) {
    run.failure = llvm::toString(result.takeError());
    return run;
  }
  run.ok = result->succeeded();
  run.timedOut = result->timedOut;
  run.output = std::move(result->output);
  run.errors = std::move(result->errorOutput);
  if (!run.ok) {
    std::string tool = llvm::sys::path::filename(argv.front()).str();
    run.failure = tool + " " + result->describeFailure(limits);
    llvm::StringRef first = llvm::StringRef(run.errors).trim();
    if (!first.empty())
      run.failure += ": " + first.split('\n').first.str();
  }
  return run;
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
  for (auto [tool, path] :
       {std::pair{"kiln-compile", &bench.compilerPath},
        std::pair{"kiln-run", &bench.runnerPath},
        std::pair{"kiln-benchmark", &bench.benchmarkPath}}) {
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
  std::vector<std::string> compile = {bench.compilerPath, bench.program, "-o",
                                      bench.baselineModule};
  llvm::append_range(compile, settings.compileFlags);
  ToolRun compiled = runTool(compile, settings.compileTimeout);
  if (!compiled.ok)
    return llvm::createStringError("the baseline of " + dispatch.executable +
                                   " does not compile: " + compiled.failure);
  // One output per result of @main.
  std::vector<std::string> run = {bench.runnerPath, bench.baselineModule,
                                  "--random-inputs", "--print-max=0"};
  mlir::ModuleOp standalone = dispatch.standalone.get();
  auto main = standalone.lookupSymbol<mlir::func::FuncOp>("main");
  for (unsigned i = 0; i < main.getNumResults(); ++i) {
    std::string output = join(folder, "expected_" + std::to_string(i) + ".npy");
    run.push_back("--output=@" + output);
    bench.expectedOutputs.push_back("--expected-output=@" + output);
  }
  ToolRun ran = runTool(run, settings.runTimeout);
  if (!ran.ok)
    return llvm::createStringError("the baseline of " + dispatch.executable +
                                   " does not run: " + ran.failure);
  return bench;
}

void DispatchBench::time(const std::string &module, Measurement &m) {
  std::vector<std::string> benchmark = {
      benchmarkPath, module, "--json",
      "--warmup=" + std::to_string(settings.warmup),
      "--repetitions=" + std::to_string(settings.repetitions)};
  if (settings.threads > 0)
    benchmark.push_back("--threads=" + std::to_string(settings.threads));
  ToolRun timed = runTool(benchmark, settings.runTimeout);
  if (!timed.ok) {
    m.runStatus = timed.timedOut ? "timeout" : "failed";
    m.error = timed.failure;
    return;
  }
  std::optional<llvm::json::Object> json = parseLastJsonObject(timed.output);
  std::optional<double> median =
      json ? json->getNumber("median_ms") : std::nullopt;
  if (!median) {
    m.runStatus = "failed";
    m.error = "kiln-benchmark printed no median";
    return;
  }
  m.runStatus = "ok";
  m.medianMs = *median;
  m.timesMs = {*median};
}

Measurement DispatchBench::measure(LoweringConfigAttr config) {
  Measurement m = startMeasurement(key, workload, settings);
  if (!config) {
    m.baseline = true;
    m.config = baselineConfig;
    m.compileStatus = "ok";
    time(baselineModule, m);
    return m;
  }
  llvm::raw_string_ostream(m.config) << config;
  std::string name = "candidate_" + std::to_string(candidates++);
  std::string spec = join(folder, name + ".spec.mlir");
  std::string module = join(folder, name + ".so");
  if (llvm::Error error = kiln::writeFile(spec, [&](auto &os) {
        os << writeTuningSpec({{key, workload, m.config, "candidate"}}, {});
        return llvm::Error::success();
      })) {
    m.compileStatus = "failed";
    m.runStatus = "skipped";
    m.error = llvm::toString(std::move(error));
    return m;
  }
  std::vector<std::string> compile = {compilerPath,
                                      program,
                                      "-o",
                                      module,
                                      "--kiln-tuning-spec=" + spec,
                                      "--kiln-explain-tuning"};
  llvm::append_range(compile, settings.compileFlags);
  llvm::append_range(compile, settings.candidateFlags);
  auto start = std::chrono::steady_clock::now();
  ToolRun compiled = runTool(compile, settings.compileTimeout);
  m.compileSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!compiled.ok ||
      compiled.errors.find("configured by user spec") == std::string::npos) {
    m.compileStatus = compiled.timedOut ? "timeout" : "failed";
    m.runStatus = "skipped";
    m.error = compiled.ok ? "the candidate's spec configured nothing"
                          : compiled.failure;
    llvm::sys::fs::remove(module);
    return m;
  }
  m.compileStatus = "ok";
  // Its numbers first: a fast wrong answer is no candidate.
  std::vector<std::string> check = {runnerPath,
                                    module,
                                    "--random-inputs",
                                    "--print-max=0",
                                    "--rtol=" + formatNumber(settings.rtol),
                                    "--atol=" + formatNumber(settings.atol)};
  llvm::append_range(check, expectedOutputs);
  ToolRun checked = runTool(check, settings.runTimeout);
  if (!checked.ok) {
    bool differs = checked.errors.find("differs from") != std::string::npos;
    m.runStatus = checked.timedOut ? "timeout" : differs ? "wrong" : "failed";
    m.error = checked.failure;
  } else {
    time(module, m);
  }
  llvm::sys::fs::remove(module);
  return m;
}
