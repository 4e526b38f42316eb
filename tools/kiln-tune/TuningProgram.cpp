//===- TuningProgram.cpp - What sweep and search share --------------------===//

#include "TuningProgram.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutablePreprocessing/Process.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace kiln;

int kiln::failCommand(const llvm::Twine &message) {
  llvm::errs() << "kiln-tune: error: " << message << "\n";
  return 1;
}

llvm::Expected<TuningWork> TuningWork::create(const std::string &folder) {
  TuningWork work;
  if (folder.empty()) {
    llvm::SmallString<128> path;
    if (std::error_code error =
            llvm::sys::fs::createUniqueDirectory("kiln-tune", path))
      return llvm::createStringError("cannot create a temporary folder: " +
                                     error.message());
    work.path = std::string(path);
    work.owned = true;
  } else {
    work.path = folder;
    if (std::error_code error = llvm::sys::fs::create_directories(folder))
      return llvm::createStringError("cannot create '" + folder +
                                     "': " + error.message());
    if (!llvm::sys::fs::is_directory(folder))
      return llvm::createStringError("cannot create '" + folder +
                                     "': it is not a folder");
  }
  setenv("TMPDIR", work.path.c_str(), /*overwrite=*/1);
  return work;
}

TuningWork::TuningWork(TuningWork &&other)
    : path(std::move(other.path)), owned(other.owned) {
  other.owned = false;
}

TuningWork::~TuningWork() {
  if (owned && !path.empty())
    llvm::sys::fs::remove_directories(path);
}

std::string TuningWork::file(const std::string &name) const {
  llvm::SmallString<256> result(path);
  llvm::sys::path::append(result, name);
  return std::string(result);
}

llvm::Error kiln::compileProgram(const std::string &program,
                                 const std::vector<std::string> &arguments,
                                 const EvaluationSettings &settings) {
  llvm::Expected<std::string> compiler = findProgram("kiln-compile");
  if (!compiler)
    return compiler.takeError();
  std::vector<std::string> compile = {*compiler, program};
  llvm::append_range(compile, arguments);
  llvm::append_range(compile, settings.compileFlags);
  llvm::append_range(compile, settings.programFlags);
  ProcessLimits limits;
  limits.timeout = settings.compileTimeout;
  llvm::Expected<ProcessResult> compiled = runProcess(compile, "", limits);
  if (!compiled)
    return compiled.takeError();
  if (!compiled->succeeded())
    return llvm::createStringError("compiling '" + program + "' " +
                                   compiled->describeFailure(limits) + ":\n" +
                                   compiled->errorOutput);
  return llvm::Error::success();
}

llvm::Expected<ConfiguredProgram> kiln::compileToConfigurations(
    mlir::MLIRContext &context, const std::string &program,
    const EvaluationSettings &settings, const TuningWork &work) {
  std::string configured = work.file("program.configured.mlir");
  if (llvm::Error error = compileProgram(
          program, {"--compile-to=executable-configurations", "-o", configured},
          settings))
    return std::move(error);
  ConfiguredProgram result;
  result.module = mlir::parseSourceFile<mlir::ModuleOp>(configured, &context);
  if (!result.module)
    return llvm::createStringError("cannot read the compiled program");
  // Candidates are timed on this machine, for one target.
  if (auto targets = (*result.module)
                         ->getAttrOfType<mlir::ArrayAttr>(
                             KilnDialect::getVariantTargetsAttrName());
      targets && targets.size() > 1)
    return llvm::createStringError(
        "the compile flags ask for " + std::to_string(targets.size()) +
        " targets (several --kiln-target-cpu or --kiln-target); kiln-tune "
        "times candidates on this machine for one target: give it one");
  result.dispatches = collectDispatches(*result.module);
  return result;
}

std::optional<CPUTargetInfo>
kiln::getDispatchTarget(mlir::ModuleOp program, llvm::StringRef executable,
                        EvaluationSettings &settings) {
  for (auto op : program.getOps<ExecutableOp>())
    if (op.getSymName() == executable)
      for (ExecutableVariantOp variant : op.getVariantOps()) {
        settings.cpu = variant.getTarget().getCPU().str();
        settings.features = variant.getTarget().getCPUFeatures().str();
        return getCPUTargetInfo(variant.getTarget());
      }
  return std::nullopt;
}

llvm::Expected<std::unique_ptr<CandidateExecutor>>
kiln::createExecutor(const ExecutorOptions &options, const std::string &cpu,
                     const TuningWork &work) {
  if (!options.scheduler.empty())
    return createDaskExecutor(options.scheduler, cpu);
  return createLocalExecutor(work.getPath(), options.compileJobs);
}

bool kiln::recordMeasurement(const std::string &database,
                             const Measurement &m) {
  if (database.empty())
    return true;
  if (llvm::Error error = TuningDatabase::append(database, m)) {
    failCommand(llvm::toString(std::move(error)));
    return false;
  }
  return true;
}

double kiln::getMedian(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double kiln::getSpread(const std::vector<double> &values) {
  double median = getMedian(values);
  if (values.empty() || median <= 0)
    return 0;
  auto [low, high] = std::minmax_element(values.begin(), values.end());
  return (*high - *low) / median;
}
