//===- ExecutableSourcesPipeline.cpp - The executable-sources phase -------===//
//
// Assembles the executable-sources phase from its passes.
//
//===----------------------------------------------------------------------===//

#include "kiln/ExecutableSources/Passes.h"

using namespace mlir;

void kiln::populateExecutableSourcesPasses(OpPassManager &pm,
                                           const TargetOptions &options) {
  MaterializeTargetVariantsPassOptions passOptions;
  passOptions.targets.assign(options.backends.begin(), options.backends.end());
  passOptions.cpus.assign(options.cpus.begin(), options.cpus.end());
  passOptions.cpuFeatures = options.cpuFeatures;
  pm.addPass(createMaterializeTargetVariantsPass(passOptions));
}
