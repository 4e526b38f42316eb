//===- Flags.cpp - Command-line flags of the pipeline ---------------------===//
//
// The --kiln-* flags that kiln-compile and kiln-opt share, and their
// translation into PipelineOptions.
//
//===----------------------------------------------------------------------===//

#include "kiln/Pipeline/Pipeline.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

#include <cstdlib>

using namespace kiln;

namespace {
struct PipelineFlags {
  llvm::cl::OptionCategory category{"Kiln pipeline options"};

  llvm::cl::opt<std::string> inputType{
      "kiln-input-type",
      llvm::cl::desc("Input conversion to run: 'auto' (every conversion "
                     "whose dialect the program uses), 'none', or a "
                     "conversion's name such as 'tosa'"),
      llvm::cl::init("auto"), llvm::cl::cat(category)};

  llvm::cl::list<std::string> targets{
      "kiln-target",
      llvm::cl::desc("Target backend to compile executables for; repeat or "
                     "separate with commas for several (default: llvm-cpu)"),
      llvm::cl::CommaSeparated, llvm::cl::cat(category)};

  llvm::cl::opt<std::string> targetCpu{
      "kiln-target-cpu",
      llvm::cl::desc("CPU to compile for: 'host' (detected through LLVM) or "
                     "an LLVM CPU name such as znver4"),
      llvm::cl::init("host"), llvm::cl::cat(category)};

  llvm::cl::opt<std::string> targetCpuFeatures{
      "kiln-target-cpu-features",
      llvm::cl::desc("Comma-separated +feature/-feature edits of the CPU's "
                     "own features"),
      llvm::cl::init(""), llvm::cl::cat(category)};

  llvm::cl::opt<std::string> preprocessingPipeline{
      "kiln-preprocessing-pipeline",
      llvm::cl::desc("Pass pipeline to run on the whole program in the "
                     "preprocessing phase, as builtin.module(...); its "
                     "passes may come from plugins"),
      llvm::cl::value_desc("pipeline"), llvm::cl::init(""),
      llvm::cl::cat(category)};

  llvm::cl::opt<std::string> preprocessingTransformSpec{
      "kiln-preprocessing-transform-spec",
      llvm::cl::desc("Transform-dialect script (a module with "
                     "@__transform_main) to apply to the whole program in "
                     "the preprocessing phase"),
      llvm::cl::value_desc("file"), llvm::cl::init(""),
      llvm::cl::cat(category)};

  llvm::cl::opt<bool> widenNarrowAccumulators{
      "kiln-accumulate-narrow-floats-in-f32",
      llvm::cl::desc("Accumulate sums and products of f16, bf16 and 8-bit "
                     "floats (reductions, matmuls, convolutions) in f32 and "
                     "round once (default true; false accumulates in the "
                     "program's type, as linalg defines it)"),
      llvm::cl::init(true), llvm::cl::cat(category)};

  llvm::cl::opt<int64_t> packFiltersMinBytes{
      "kiln-pack-filters-min-bytes",
      llvm::cl::desc("Lay out constant convolution filters of at least this "
                     "many bytes in contiguous panels of output channels at "
                     "compile time (default 1 MiB; negative: never)"),
      llvm::cl::value_desc("bytes"), llvm::cl::init(1 << 20),
      llvm::cl::cat(category)};

  llvm::cl::opt<int64_t> packWeightsMinBytes{
      "kiln-pack-weights-min-bytes",
      llvm::cl::desc("Lay out constant weights of matmuls and other "
                     "contractions of at least this many bytes in contiguous "
                     "panels of columns, as wide as the target's register "
                     "tile, at compile time (default 64 KiB; negative: "
                     "never)"),
      llvm::cl::value_desc("bytes"), llvm::cl::init(64 << 10),
      llvm::cl::cat(category)};

  llvm::cl::OptionCategory preprocessing{"Kiln executable preprocessing"};
  llvm::cl::list<std::string> preprocessWith{
      "kiln-preprocess-executables-with",
      llvm::cl::desc("Hand every executable to COMMAND at the end of the "
                     "executable-sources phase: a pass pipeline "
                     "(builtin.module(...)) run in-process, or a program "
                     "reading the executable on stdin and printing its "
                     "replacement; repeat to chain"),
      llvm::cl::value_desc("command"), llvm::cl::cat(preprocessing)};
  llvm::cl::opt<std::string> preprocessFormat{
      "kiln-preprocess-executables-format",
      llvm::cl::desc("What a tool receives: text, generic (generic op form) "
                     "or bytecode"),
      llvm::cl::init("text"), llvm::cl::cat(preprocessing)};
  llvm::cl::opt<unsigned> preprocessJobs{
      "kiln-preprocess-executables-jobs",
      llvm::cl::desc("Tool processes at once (default 0: the number of "
                     "cores)"),
      llvm::cl::init(0), llvm::cl::cat(preprocessing)};
  llvm::cl::opt<double> preprocessTimeout{
      "kiln-preprocess-executables-timeout",
      llvm::cl::desc("Seconds after which a tool is killed with its process "
                     "group (default 300)"),
      llvm::cl::init(300), llvm::cl::cat(preprocessing)};
  llvm::cl::opt<uint64_t> preprocessMaxOutput{
      "kiln-preprocess-executables-max-output",
      llvm::cl::desc("Bytes a tool may print before it is killed (default "
                     "256 MiB)"),
      llvm::cl::init(256u << 20), llvm::cl::cat(preprocessing)};
  llvm::cl::opt<std::string> preprocessCache{
      "kiln-preprocess-executables-cache",
      llvm::cl::desc("Keep tools' results in DIR and reuse them for "
                     "unchanged executables, commands and tools"),
      llvm::cl::value_desc("dir"), llvm::cl::init(""),
      llvm::cl::cat(preprocessing)};
  llvm::cl::opt<std::string> dumpExecutables{
      "kiln-dump-executables-to",
      llvm::cl::desc("Write every executable to DIR before and after "
                     "preprocessing and after configuration "
                     "(<name>.sources/preprocessed/configured.mlir)"),
      llvm::cl::value_desc("dir"), llvm::cl::init(""),
      llvm::cl::cat(preprocessing)};
  llvm::cl::list<std::string> substitute{
      "kiln-substitute-executable",
      llvm::cl::desc("Replace executable NAME with the one in FILE after "
                     "preprocessing (repeatable)"),
      llvm::cl::value_desc("name=file"), llvm::cl::cat(preprocessing)};

  llvm::cl::OptionCategory tuning{"Kiln tuning specs"};
  llvm::cl::list<std::string> tuningSpecs{
      "kiln-tuning-spec",
      llvm::cl::desc("A tuning spec to apply (repeatable; the first given "
                     "has the highest precedence; before the ones on "
                     "KILN_TUNING_SPEC_PATH, plugins' and the default)"),
      llvm::cl::value_desc("file"), llvm::cl::cat(tuning)};
  llvm::cl::opt<bool> noDefaultTuningSpecs{
      "kiln-no-default-tuning-specs",
      llvm::cl::desc("Do not use Kiln's default tuning spec for the target "
                     "CPU"),
      llvm::cl::init(false), llvm::cl::cat(tuning)};
  llvm::cl::opt<std::string> dumpTuningSpecs{
      "kiln-dump-tuning-specs-to",
      llvm::cl::desc("Write every tuning spec a compile uses, and the "
                     "library they link into, to DIR"),
      llvm::cl::value_desc("dir"), llvm::cl::init(""), llvm::cl::cat(tuning)};
  llvm::cl::opt<bool> explainTuning{
      "kiln-explain-tuning",
      llvm::cl::desc("Print, for each dispatch, the tuning spec or heuristic "
                     "that configured it, and its configuration"),
      llvm::cl::init(false), llvm::cl::cat(tuning)};
};
} // namespace

static llvm::ManagedStatic<PipelineFlags> flags;

std::vector<std::string> kiln::getTuningSpecSearchPath() {
  std::vector<std::string> entries;
  const char *path = std::getenv("KILN_TUNING_SPEC_PATH");
  if (!path)
    return entries;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(path).split(parts, ':', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts)
    entries.push_back(part.str());
  return entries;
}

void kiln::registerPipelineFlags() { *flags; }

PipelineOptions kiln::getPipelineOptionsFromFlags() {
  PipelineOptions options;
  if (!flags.isConstructed())
    return options;
  options.input.inputType = flags->inputType;
  if (!flags->targets.empty())
    options.target.backends.assign(flags->targets.begin(),
                                   flags->targets.end());
  options.target.cpu = flags->targetCpu;
  options.target.cpuFeatures = flags->targetCpuFeatures;
  options.preprocessingPipeline = flags->preprocessingPipeline;
  options.preprocessingTransformSpec = flags->preprocessingTransformSpec;
  options.globalOptimization.widenNarrowAccumulators =
      flags->widenNarrowAccumulators;
  options.globalOptimization.packFiltersMinBytes = flags->packFiltersMinBytes;
  options.globalOptimization.packWeightsMinBytes = flags->packWeightsMinBytes;
  options.executablePreprocessing.commands.assign(flags->preprocessWith.begin(),
                                                  flags->preprocessWith.end());
  options.executablePreprocessing.format = flags->preprocessFormat;
  options.executablePreprocessing.jobs = flags->preprocessJobs;
  options.executablePreprocessing.timeoutSeconds = flags->preprocessTimeout;
  options.executablePreprocessing.maxOutputBytes = flags->preprocessMaxOutput;
  options.executablePreprocessing.cacheDir = flags->preprocessCache;
  options.executablePreprocessing.dumpDir = flags->dumpExecutables;
  options.executablePreprocessing.substitutions.assign(
      flags->substitute.begin(), flags->substitute.end());
  options.tuning.specFiles.assign(flags->tuningSpecs.begin(),
                                  flags->tuningSpecs.end());
  options.tuning.searchPath = getTuningSpecSearchPath();
  options.tuning.useDefaults = !flags->noDefaultTuningSpecs;
  options.tuning.dumpDir = flags->dumpTuningSpecs;
  options.tuning.explain = flags->explainTuning;
  return options;
}
