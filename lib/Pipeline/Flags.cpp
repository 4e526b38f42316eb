//===- Flags.cpp - Command-line flags of the pipeline ---------------------===//
//
// The pipeline's options, bound by each component (bindOptions), and the
// flags of a tool's session: kiln-compile's and kiln-opt's --kiln-*.
//
//===----------------------------------------------------------------------===//

#include "kiln/Options/OptionsBinder.h"
#include "kiln/Pipeline/Pipeline.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

#include <cstdlib>

using namespace kiln;

void PipelineOptions::bindOptions(OptionsBinder &binder) {
  input.bindOptions(binder);
  target.bindOptions(binder);
  binder.category("Kiln pipeline options");
  binder.opt("kiln-preprocessing-pipeline", preprocessingPipeline,
             llvm::cl::desc("Pass pipeline to run on the whole program in the "
                            "preprocessing phase, as builtin.module(...); its "
                            "passes may come from plugins"),
             llvm::cl::value_desc("pipeline"));
  binder.opt("kiln-preprocessing-transform-spec", preprocessingTransformSpec,
             llvm::cl::desc("Transform-dialect script (a module with "
                            "@__transform_main) to apply to the whole "
                            "program in the preprocessing phase"),
             llvm::cl::value_desc("file"));
  globalOptimization.bindOptions(binder);
  executablePreprocessing.bindOptions(binder);
  tuning.bindOptions(binder);
}

namespace {
/// The options of a tool's one session, bound to its command line.
struct FlagOptions {
  PipelineOptions options;
  FlagOptions() {
    OptionsBinder binder = OptionsBinder::global();
    options.bindOptions(binder);
  }
};
} // namespace

static llvm::ManagedStatic<FlagOptions> flags;

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
  PipelineOptions options =
      flags.isConstructed() ? flags->options : PipelineOptions();
  options.tuning.searchPath = getTuningSpecSearchPath();
  return options;
}
