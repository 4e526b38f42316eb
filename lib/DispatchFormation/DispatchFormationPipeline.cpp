//===- DispatchFormationPipeline.cpp - The dispatch formation phase -------===//
//
// Assembles the dispatch formation phase from its passes.
//
//===----------------------------------------------------------------------===//

#include "kiln/DispatchFormation/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::populateDispatchFormationPasses(OpPassManager &pm) {
  pm.addPass(createOutlineExternalDispatchesPass());
  pm.addNestedPass<func::FuncOp>(createFormDispatchRegionsPass());
  pm.addPass(createOutlineDispatchRegionsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createDeduplicateExecutablesPass());
}
