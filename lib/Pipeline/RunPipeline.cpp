//===- RunPipeline.cpp - Pipelines of others, run under a name ------------===//
//
// Runs a pipeline someone else supplied (a plugin, the user) as one pass,
// so that its failure is reported as theirs, and checks the user's
// pipelines before a compile starts.
//
//===----------------------------------------------------------------------===//

#include "kiln/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kiln;

namespace {
class RunPipelinePass
    : public PassWrapper<RunPipelinePass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RunPipelinePass)

  RunPipelinePass(OpPassManager pipeline, std::string failureMessage)
      : pipeline(std::move(pipeline)),
        failureMessage(std::move(failureMessage)) {}
  RunPipelinePass(const RunPipelinePass &other)
      : PassWrapper(other), pipeline(other.pipeline),
        failureMessage(other.failureMessage) {}

  llvm::StringRef getArgument() const override { return "kiln-run-pipeline"; }
  llvm::StringRef getDescription() const override {
    return "Run a pipeline supplied by a plugin or the user";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() override {
    if (succeeded(runPipeline(pipeline, getOperation())))
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    pipeline.printAsTextualPipeline(os);
    getOperation().emitError() << failureMessage << " (" << text << ") failed";
    signalPassFailure();
  }

private:
  OpPassManager pipeline;
  std::string failureMessage;
};
} // namespace

std::unique_ptr<Pass> kiln::createRunPipelinePass(OpPassManager pipeline,
                                                  std::string failureMessage) {
  return std::make_unique<RunPipelinePass>(std::move(pipeline),
                                           std::move(failureMessage));
}

llvm::Error kiln::verifyPipelineOptions(const PipelineOptions &options) {
  if (llvm::Error error =
          verifyExecutablePreprocessingOptions(options.executablePreprocessing))
    return error;
  if (llvm::Error error = options.serialization.verify())
    return error;
  if (!options.preprocessingTransformSpec.empty() &&
      !llvm::sys::fs::exists(options.preprocessingTransformSpec))
    return llvm::createStringError("--kiln-preprocessing-transform-spec: no "
                                   "such file '" +
                                   options.preprocessingTransformSpec + "'");
  if (options.preprocessingPipeline.empty())
    return llvm::Error::success();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  FailureOr<OpPassManager> parsed =
      parsePassPipeline(options.preprocessingPipeline, os);
  if (failed(parsed))
    return llvm::createStringError(
        "--kiln-preprocessing-pipeline='" + options.preprocessingPipeline +
        "' does not parse: " + llvm::StringRef(errors).trim().str());
  if (parsed->getOpAnchorName() != ModuleOp::getOperationName())
    return llvm::createStringError(
        "--kiln-preprocessing-pipeline='" + options.preprocessingPipeline +
        "' must run on the whole program: write builtin.module(...)");
  return llvm::Error::success();
}
