//===- HostPipeline.cpp - The host phase ----------------------------------===//
//
// Host functions on tensors to LLVM functions that allocate buffers and
// launch kernels through the runtime.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Host/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace kiln;

void kiln::populateHostPasses(OpPassManager &pm) {
  pm.addPass(createBufferizeHostPass());
  pm.nest<func::FuncOp>().addPass(createCanonicalizerPass());
  // Free every buffer after its last use; results stay owned by the caller.
  // MLIR's buildBufferDeallocationPipeline, with the passes that can run
  // nested on host functions: at the module's level they would also walk every
  // executable's kernels (lowered already), one after the other.
  bufferization::BufferDeallocationPipelineOptions deallocOptions;
  OpPassManager &deallocPm = pm.nest<func::FuncOp>();
  memref::ExpandReallocPassOptions expandRealloc;
  expandRealloc.emitDeallocs = false;
  deallocPm.addPass(memref::createExpandReallocPass(expandRealloc));
  deallocPm.addPass(createCanonicalizerPass());
  bufferization::OwnershipBasedBufferDeallocationPassOptions ownership;
  ownership.privateFuncDynamicOwnership =
      deallocOptions.privateFunctionDynamicOwnership;
  pm.addPass(
      bufferization::createOwnershipBasedBufferDeallocationPass(ownership));
  OpPassManager &simplifyPm = pm.nest<func::FuncOp>();
  simplifyPm.addPass(createDropRetainedDeallocsPass());
  simplifyPm.addPass(createCanonicalizerPass());
  simplifyPm.addPass(
      bufferization::createBufferDeallocationSimplificationPass());
  // May add helper functions to the module.
  pm.addPass(bufferization::createLowerDeallocationsPass());
  OpPassManager &cleanupPm = pm.nest<func::FuncOp>();
  cleanupPm.addPass(createCSEPass());
  cleanupPm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Static intermediates share one arena by lifetime.
  pm.nest<func::FuncOp>().addPass(createPlanHostMemoryPass());
  pm.addPass(createThreadRuntimeContextPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createExpandMemRefCopiesPass());
  funcPm.addPass(createLowerAffinePass());
  funcPm.addPass(createSCFToControlFlowPass());
  funcPm.addPass(createLowerDynamicExpandShapesPass());
  funcPm.addPass(memref::createExpandStridedMetadataPass());
  funcPm.addPass(createLowerAffinePass());
  funcPm.addPass(arith::createArithExpandOpsPass());
  // bf16 and 8-bit floats the host computes with (a scalar read from a
  // tensor): no CPU is known, so in f32 with integer conversions.
  funcPm.addPass(createExpandSmallFloatsPass());
  funcPm.addPass(createCanonicalizerPass());
  // After the last pass that may add a buffer.
  pm.addPass(createAllocateThroughRuntimePass());
  pm.addPass(createNamespaceHostFunctionsPass());
  pm.addPass(createNumberDispatchesPass());
  pm.addPass(createConvertHostToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createReturnResultsInMemoryPass());
  pm.addPass(createEmitEntryPointsPass());
}
