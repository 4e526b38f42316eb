//===- RunPhase.cpp - One phase of the pipeline, as a pass ----------------===//
//
// kiln-opt's `kiln-phase-<name>` pipelines: one phase, built when the pass
// manager starts, from the --kiln-* flags (checked as kiln-compile checks
// them) and the hooks of the session attached to the context.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Pipeline/Pipeline.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <optional>

using namespace mlir;
using namespace kiln;

MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::PipelineHooks)

namespace {
class RunPhasePass : public PassWrapper<RunPhasePass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RunPhasePass)

  explicit RunPhasePass(Phase phase)
      : phase(phase), argument(("kiln-phase-" + getPhaseName(phase)).str()),
        description(("Kiln's " + getPhaseName(phase) +
                     " phase, configured by the --kiln-* flags")
                        .str()) {}
  RunPhasePass(const RunPhasePass &other)
      : PassWrapper(other), phase(other.phase), argument(other.argument),
        description(other.description), pipeline(other.pipeline) {}

  llvm::StringRef getArgument() const override { return argument; }
  llvm::StringRef getDescription() const override { return description; }

  void getDependentDialects(DialectRegistry &registry) const override {
    // The phase without hooks: a session loads its plugins' dialects into
    // the context when it attaches (PluginSession::attachTo).
    OpPassManager pm(ModuleOp::getOperationName());
    populatePhasePasses(pm, phase, getPipelineOptionsFromFlags());
    pm.getDependentDialects(registry);
    // Where the session's state lives (kiln-opt attaches its session when
    // the dialect loads).
    registry.insert<KilnDialect>();
  }

  LogicalResult initialize(MLIRContext *context) override {
    PipelineOptions options = getPipelineOptionsFromFlags();
    if (llvm::Error error = verifyPipelineOptions(options))
      return emitError(UnknownLoc::get(context))
             << "--" << argument << ": " << llvm::toString(std::move(error));
    pipeline.emplace(ModuleOp::getOperationName());
    populatePhasePasses(*pipeline, phase, options,
                        getSessionState<PipelineHooks>(context));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkRecordedPhase(module, phase)) ||
        failed(runPipeline(*pipeline, module)))
      return signalPassFailure();
    recordPhase(module, phase);
  }

private:
  Phase phase;
  std::string argument, description;
  std::optional<OpPassManager> pipeline;
};
} // namespace

void kiln::registerPhasePipelines() {
  for (Phase phase : getAllPhases())
    PassRegistration<RunPhasePass>(
        [phase] { return std::make_unique<RunPhasePass>(phase); });
}
