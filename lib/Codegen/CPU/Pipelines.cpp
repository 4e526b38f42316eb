//===- Pipelines.cpp - The llvm-cpu backend's pipelines -------------------===//
//
// Configuration: heuristics. Codegen: distribute to workgroups, tile and
// vectorize by the config, bufferize, lower the kernel interface and
// everything else to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/CPUPipelines.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace kiln;

static constexpr PipelineInfo kPipelines[] = {
    {"cpu-contraction", "matmuls and batch matmuls: register tiles of rows x "
                        "vectors, B packed into panels"},
    {"cpu-convolution", "convolutions and pooling: a register tile of one "
                        "output row"},
    {"cpu-elementwise", "elementwise ops and copies: vectors, in blocks for "
                        "transposes"},
    {"cpu-reduction", "reductions, row softmax included"},
    {"cpu-default", "anything else: tiled to workgroups, then loops"},
};

llvm::ArrayRef<PipelineInfo> kiln::getCPUPipelines() { return kPipelines; }

StringRef kiln::getCPUPipelineName(CPUPipeline pipeline) {
  return kPipelines[static_cast<size_t>(pipeline)].name;
}

std::optional<CPUPipeline> kiln::getCPUPipeline(LoweringConfigAttr config) {
  if (!config)
    return std::nullopt;
  StringRef name = config.getPipeline().getValue();
  for (auto [index, info] : llvm::enumerate(kPipelines))
    if (info.name == name)
      return static_cast<CPUPipeline>(index);
  return std::nullopt;
}

void kiln::buildCPUConfigurationPipeline(OpPassManager &variantPm) {
  variantPm.addPass(createCPUSelectLoweringConfigPass());
}

void kiln::addCPUBufferizationPasses(OpPassManager &modulePm) {
  modulePm.nest<func::FuncOp>().addPass(createSeparateSharedDestinationsPass());
  modulePm.addPass(bufferization::createEmptyTensorEliminationPass());
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = false;
  options.bufferAlignment = 64;
  modulePm.addPass(bufferization::createOneShotBufferizePass(options));
  OpPassManager &funcPm = modulePm.nest<func::FuncOp>();
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  funcPm.addPass(bufferization::createBufferHoistingPass());
  funcPm.addPass(bufferization::createBufferLoopHoistingPass());
  bufferization::PromoteBuffersToStackPassOptions stackOptions;
  stackOptions.maxAllocSizeInBytes = kMaxStackBufferBytes;
  funcPm.addPass(bufferization::createPromoteBuffersToStackPass(stackOptions));
  // The larger buffers of bounded size come from the runtime's per-thread
  // scratch.
  funcPm.addPass(createAllocateWorkgroupScratchPass());
  bufferization::BufferDeallocationPipelineOptions deallocOptions;
  bufferization::buildBufferDeallocationPipeline(modulePm, deallocOptions);
  modulePm.addPass(createConvertBufferizationToMemRefPass());
}

void kiln::addCPULLVMLoweringPasses(OpPassManager &modulePm) {
  OpPassManager &funcPm = modulePm.nest<func::FuncOp>();
  funcPm.addPass(createCPULowerVectorsPass());
  funcPm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createConvertLinalgToLoopsPass());
  funcPm.addPass(createExpandMemRefCopiesPass(
      ExpandMemRefCopiesPassOptions{/*vectorRows=*/true}));
  funcPm.addPass(createCanonicalizerPass());
  modulePm.addPass(createLowerKernelInterfacePass());
  modulePm.addPass(createLowerAffinePass());
  modulePm.addPass(createCPULowerMinMaxPass());
  modulePm.addPass(arith::createArithExpandOpsPass());
  modulePm.addPass(createSCFToControlFlowPass());
  modulePm.nest<func::FuncOp>().addPass(createLowerDynamicExpandShapesPass());
  modulePm.addPass(memref::createExpandStridedMetadataPass());
  modulePm.addPass(createLowerAffinePass());
  // Last before the conversion to LLVM: a folder would undo its constants.
  modulePm.addPass(createExpandSmallFloatsPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.reassociateFPReductions = true;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  modulePm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  modulePm.addPass(createFinalizeMemRefToLLVMConversionPass());
  modulePm.addPass(createConvertMathToLLVMPass());
  modulePm.addPass(createConvertMathToLibmPass());
  modulePm.addPass(createArithToLLVMConversionPass());
  modulePm.addPass(createConvertIndexToLLVMPass());
  modulePm.addPass(createConvertControlFlowToLLVMPass());
  modulePm.addPass(createConvertFuncToLLVMPass());
  modulePm.addPass(createUBToLLVMConversionPass());
  modulePm.addPass(createReconcileUnrealizedCastsPass());
  modulePm.addPass(createCanonicalizerPass());
  modulePm.addPass(createCSEPass());
}

void kiln::buildCPUCodegenPipeline(OpPassManager &variantPm) {
  variantPm.addPass(createTileAndDistributeToWorkgroupsPass());
  OpPassManager &modulePm = variantPm.nest<ModuleOp>();
  OpPassManager &funcPm = modulePm.nest<func::FuncOp>();
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  funcPm.addPass(createCPUTileAndVectorizePass());
  funcPm.addPass(createDecomposeOpsPass());
  funcPm.addPass(createCanonicalizerPass());
  funcPm.addPass(createCSEPass());
  addCPUBufferizationPasses(modulePm);
  addCPULLVMLoweringPasses(modulePm);
}
