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
  bufferization::BufferDeallocationPipelineOptions deallocOptions;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOptions);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Static intermediates share one arena by lifetime.
  pm.nest<func::FuncOp>().addPass(createPlanHostMemoryPass());
  pm.addPass(createThreadRuntimeContextPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createExpandMemRefCopiesPass());
  funcPm.addPass(createLowerAffinePass());
  funcPm.addPass(createSCFToControlFlowPass());
  funcPm.addPass(memref::createExpandStridedMetadataPass());
  funcPm.addPass(createLowerAffinePass());
  funcPm.addPass(arith::createArithExpandOpsPass());
  funcPm.addPass(createCanonicalizerPass());
  // After the last pass that may add a buffer.
  pm.addPass(createAllocateThroughRuntimePass());
  pm.addPass(createNamespaceHostFunctionsPass());
  pm.addPass(createConvertHostToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createEmitEntryPointsPass());
}
