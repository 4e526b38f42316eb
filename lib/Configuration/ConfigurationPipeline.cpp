//===- ConfigurationPipeline.cpp - The executable-configurations phase ----===//
//
// Tuning specs first, then every variant of every executable is configured
// by its backend (executables in parallel), then the explanation.
//
//===----------------------------------------------------------------------===//

#include "kiln/Configuration/Passes.h"

using namespace mlir;

void kiln::populateConfigurationPasses(OpPassManager &pm,
                                       const TuningOptions &tuning) {
  pm.addPass(createMaterializeTuningLibraryPass(tuning));
  pm.addPass(createApplyTuningLibraryPass());
  pm.nest<ExecutableOp>().nest<ExecutableVariantOp>().addPass(
      createConfigureVariantPass());
  if (tuning.explain)
    pm.addPass(createExplainTuningPass());
}
