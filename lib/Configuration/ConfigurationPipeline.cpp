//===- ConfigurationPipeline.cpp - The executable-configurations phase ----===//
//
// Configures every variant of every executable, executables in parallel.
//
//===----------------------------------------------------------------------===//

#include "kiln/Configuration/Passes.h"

using namespace mlir;

void kiln::populateConfigurationPasses(OpPassManager &pm) {
  pm.nest<ExecutableOp>().nest<ExecutableVariantOp>().addPass(
      createConfigureVariantPass());
}
