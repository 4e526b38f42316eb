//===- ConfigurationPipeline.cpp - The executable-configurations phase ----===//
//
// Tuning specs first, then every variant of every executable is configured
// by its backend (executables in parallel) and its configs checked, then
// the explanation.
//
//===----------------------------------------------------------------------===//

#include "kiln/Configuration/Passes.h"

using namespace mlir;

void kiln::populateConfigurationPasses(OpPassManager &pm,
                                       const TuningOptions &tuning) {
  pm.addPass(createMaterializeTuningLibraryPass(tuning));
  pm.addPass(createApplyTuningLibraryPass());
  OpPassManager &variants = pm.nest<ExecutableOp>().nest<ExecutableVariantOp>();
  variants.addPass(createConfigureVariantPass());
  variants.addPass(createVerifyLoweringConfigsPass());
  if (tuning.explain)
    pm.addPass(createExplainTuningPass());
}
