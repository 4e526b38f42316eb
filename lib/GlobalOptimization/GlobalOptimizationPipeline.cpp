//===- GlobalOptimizationPipeline.cpp - The global optimization phase -----===//
//
// Assembles the global optimization phase from upstream and Kiln passes.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "kiln/RuntimeChecks/Passes.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::populateGlobalOptimizationPasses(
    OpPassManager &pm, const GlobalOptimizationOptions &options,
    const TargetOptions &target) {
  // Calls of private functions are inlined, so that shapes specialize and
  // ops fuse across what were function boundaries; the functions go.
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createConvertElementwiseToLinalgPass());
  // Before fusion, while each op still reads the values it checks.
  if (options.runtimeChecks) {
    funcPm.addPass(createCheckDynamicShapesPass());
    funcPm.addPass(createGuardIndicesAndDivisorsPass());
  }
  // Zero-sized work goes before fusion and tiling see it.
  funcPm.addPass(createFoldZeroTripLinalgOpsPass());
  // Large splats become fills, which fusion turns into scalars; splats
  // that folding makes later are caught at the end.
  funcPm.addPass(createMaterializeSplatConstantsPass());
  // Before fusion, which merges the transposes this makes into the ops
  // around them.
  funcPm.addPass(createConvertConvolutionsToChannelsLastPass());
  // Activations with several users stay channels-last too: their
  // transposes sink to where they cancel or fuse.
  funcPm.addPass(createPropagateTransposesPass());
  // Before fusion too, which then merges the truncation of a sum of narrow
  // floats with the elementwise ops after it.
  if (options.widenNarrowAccumulators)
    funcPm.addPass(createWidenNarrowAccumulatorsPass());
  // Constant filters of channels-last convolutions in panels; before
  // fusion, which moves the collapse of the result past the epilogue.
  if (options.packFiltersMinBytes >= 0) {
    PackConvolutionFiltersPassOptions pack;
    pack.minFilterBytes = options.packFiltersMinBytes;
    pack.targets.assign(target.backends.begin(), target.backends.end());
    pack.cpus.assign(target.cpus.begin(), target.cpus.end());
    pack.cpuFeatures = target.cpuFeatures;
    funcPm.addPass(createPackConvolutionFiltersPass(pack));
  }
  // Constant weights of contractions in panels as wide as the targets'
  // register tiles; before fusion, for the same reason.
  if (options.packWeightsMinBytes >= 0) {
    PackContractionWeightsPassOptions pack;
    pack.minWeightBytes = options.packWeightsMinBytes;
    pack.targets.assign(target.backends.begin(), target.backends.end());
    pack.cpus.assign(target.cpus.begin(), target.cpus.end());
    pack.cpuFeatures = target.cpuFeatures;
    funcPm.addPass(createPackContractionWeightsPass(pack));
  }
  funcPm.addPass(createFuseElementwiseOpsPass());
  // The transposes fusion merged into reductions decide their loop order.
  funcPm.addPass(createInterchangeReductionLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.nest<func::FuncOp>().addPass(createMaterializeSplatConstantsPass());
}
