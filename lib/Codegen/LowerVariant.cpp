//===- LowerVariant.cpp - Run a backend's codegen pipeline ----------------===//
//
// Hands each configured variant to the codegen pipeline of its target
// backend, unless it is already in the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Passes.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Instrumentation/CompileCancellation.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln {
#define GEN_PASS_DEF_LOWERVARIANTPASS
#include "kiln/Codegen/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct LowerVariantPass
    : public kiln::impl::LowerVariantPassBase<LowerVariantPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    // The built-in backends'; a session loads its plugins' backends'
    // dialects into its context when it attaches them.
    TargetRegistry::getBuiltin().getDependentDialects(registry);
  }

  void runOnOperation() override {
    ExecutableVariantOp variant = getOperation();
    ModuleOp module = variant.getInnerModule();
    auto *statistics = getSessionState<CompileStatistics>(&getContext());
    StringRef executableName =
        variant->getParentOfType<ExecutableOp>().getSymName();
    // The caller asked the compile to stop: no more executables.
    if (isCompileCancelled(&getContext())) {
      variant.emitError() << "the compile was interrupted";
      return signalPassFailure();
    }
    // Lowered already (by preprocessing), or without a module: its object
    // code came from the object cache.
    if (!module || isLoweredToLLVM(variant)) {
      ++numSkipped;
      if (statistics)
        statistics->recordCodegen(executableName, -1);
      return;
    }
    CompileStatistics::Clock::time_point start =
        CompileStatistics::Clock::now();
    std::string backendName = variant.getTarget().getBackend().getValue().str();
    OpPassManager pm(ExecutableVariantOp::getOperationName());
    if (auto claimant = variant->getAttrOfType<StringAttr>(
            KilnDialect::getClaimedByAttrName())) {
      // Claimed during configuration: the plugin compiles it.
      VariantClaims *claims = getVariantClaims(&getContext());
      std::optional<VariantClaim> claim =
          claims ? claims->lookup(claimant.getValue()) : std::nullopt;
      if (!claim) {
        variant.emitError()
            << "was claimed by plugin '" << claimant.getValue()
            << "', which is not active in this compile; activate it with "
               "--kiln-plugin="
            << claimant.getValue();
        return signalPassFailure();
      }
      claim->buildCodegenPipeline(pm);
      backendName = "plugin '" + claimant.getValue().str() + "'";
    } else {
      auto backend = TargetRegistry::get(&getContext()).lookup(backendName);
      if (!backend) {
        variant.emitError() << llvm::toString(backend.takeError());
        return signalPassFailure();
      }
      (*backend)->buildCodegenPipeline(pm);
      backendName += " backend";
    }
    if (failed(runPipeline(pm, variant)))
      return signalPassFailure();
    ++numLowered;
    if (statistics)
      statistics->recordCodegen(executableName, secondsSince(start));
    // Conversions to LLVM are partial: say here what was left behind,
    // rather than leave it to fail translation without a location.
    WalkResult leftover = module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()))
        return WalkResult::advance();
      InFlightDiagnostic diag = op->emitError();
      // What conversions leave behind when they cannot convert a type.
      if (auto cast = dyn_cast<UnrealizedConversionCastOp>(op))
        diag << "values of type " << cast.getResultTypes()
             << " could not be lowered to the LLVM dialect by the "
             << backendName;
      else
        diag << "'" << op->getName()
             << "' could not be lowered to the LLVM dialect by the "
             << backendName;
      return WalkResult::interrupt();
    });
    if (leftover.wasInterrupted())
      return signalPassFailure();
  }
};
} // namespace
