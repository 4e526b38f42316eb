//===- Flags.cpp - Command-line flags of the pipeline ---------------------===//
//
// The --kiln-* flags that kiln-compile and kiln-opt share, and their
// translation into PipelineOptions.
//
//===----------------------------------------------------------------------===//

#include "kiln/Pipeline/Pipeline.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

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
};
} // namespace

static llvm::ManagedStatic<PipelineFlags> flags;

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
  return options;
}
