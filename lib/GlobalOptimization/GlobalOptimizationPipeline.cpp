//===- GlobalOptimizationPipeline.cpp - The global optimization phase -----===//
//
// Assembles the global optimization phase from upstream and Kiln passes.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::populateGlobalOptimizationPasses(OpPassManager &pm) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertElementwiseToLinalgPass());
  funcPm.addPass(createFuseElementwiseOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}
