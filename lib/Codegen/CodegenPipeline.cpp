//===- CodegenPipeline.cpp - The executable-codegen phase -----------------===//
//
// Lowers every variant of every executable, executables in parallel.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Passes.h"

using namespace mlir;

void kiln::populateCodegenPasses(OpPassManager &pm) {
  pm.nest<ExecutableOp>().nest<ExecutableVariantOp>().addPass(
      createLowerVariantPass());
}
