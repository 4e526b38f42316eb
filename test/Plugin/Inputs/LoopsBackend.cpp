//===- LoopsBackend.cpp - A whole target backend in a plugin --------------===//
//
// The plugin test_loops adds the target backend "test-loops", which takes a
// variant from its source to a linkable object without llvm-cpu's
// configuration or codegen: one workgroup runs the whole dispatch, its ops
// bufferized by MLIR's one-shot bufferization and lowered to plain loops,
// then to the LLVM dialect, and serialized through Kiln's LLVM emitter.
// The module it makes loads and runs on its own, or beside llvm-cpu's
// variants (--kiln-target=llvm-cpu,test-loops).
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Plugin/PluginAPI.h"
#include "kiln/Serialization/ObjectCode.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace {

/// Makes every export of the variant launch one workgroup.
struct OneWorkgroupPass
    : public PassWrapper<OneWorkgroupPass,
                         OperationPass<kiln::ExecutableVariantOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OneWorkgroupPass)
  llvm::StringRef getArgument() const override {
    return "test-loops-one-workgroup";
  }
  llvm::StringRef getDescription() const override {
    return "Launch every export on one workgroup (test_loops plugin)";
  }
  void runOnOperation() override {
    for (auto exportOp : getOperation().getExportOps())
      exportOp.getWorkgroupCount().walk(
          [&](kiln::WorkgroupCountFromWorkloadOp count) {
            OpBuilder builder(count);
            Value one =
                arith::ConstantIndexOp::create(builder, count.getLoc(), 1);
            for (Value result : count->getResults())
              result.replaceAllUsesWith(one);
            count.erase();
          });
  }
};

class LoopsTargetBackend : public kiln::TargetBackend {
public:
  llvm::StringRef getName() const override { return "test-loops"; }
  llvm::StringRef getDescription() const override {
    return "plain loops on one workgroup (the test_loops plugin)";
  }

  // The CPU and its features as llvm-cpu resolves them, under this name.
  llvm::Expected<kiln::TargetAttr>
  getTargetAttr(MLIRContext *context,
                const kiln::TargetRequest &request) const override {
    auto llvmCPU = kiln::TargetRegistry::getBuiltin().lookup("llvm-cpu");
    if (!llvmCPU)
      return llvmCPU.takeError();
    auto cpu = (*llvmCPU)->getTargetAttr(context, request);
    if (!cpu)
      return cpu.takeError();
    return kiln::TargetAttr::get(context, StringAttr::get(context, getName()),
                                 cpu->getConfiguration());
  }

  // Nothing to configure: no tiles, no pipelines.
  void buildConfigurationPipeline(OpPassManager &pm) const override {}

  void buildCodegenPipeline(OpPassManager &pm) const override {
    pm.addPass(std::make_unique<OneWorkgroupPass>());
    OpPassManager &modulePm = pm.nest<ModuleOp>();
    modulePm.addPass(bufferization::createEmptyTensorEliminationPass());
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = false;
    bufferize.bufferAlignment = 64;
    modulePm.addPass(bufferization::createOneShotBufferizePass(bufferize));
    bufferization::buildBufferDeallocationPipeline(
        modulePm, bufferization::BufferDeallocationPipelineOptions());
    modulePm.addPass(createConvertBufferizationToMemRefPass());
    modulePm.nest<func::FuncOp>().addPass(createConvertLinalgToLoopsPass());
    // The kernel interface of kiln_module_abi.h: Kiln's pass, which every
    // backend whose kernels run on the CPU uses.
    modulePm.addPass(kiln::createLowerKernelInterfacePass());
    modulePm.addPass(createLowerAffinePass());
    modulePm.addPass(createSCFToControlFlowPass());
    modulePm.addPass(memref::createExpandStridedMetadataPass());
    modulePm.addPass(createLowerAffinePass());
    modulePm.addPass(createFinalizeMemRefToLLVMConversionPass());
    modulePm.addPass(createConvertMathToLLVMPass());
    modulePm.addPass(createConvertMathToLibmPass());
    modulePm.addPass(createArithToLLVMConversionPass());
    modulePm.addPass(createConvertIndexToLLVMPass());
    modulePm.addPass(createConvertControlFlowToLLVMPass());
    modulePm.addPass(createConvertFuncToLLVMPass());
    modulePm.addPass(createReconcileUnrealizedCastsPass());
  }

  llvm::Expected<std::string>
  serializeVariant(kiln::ExecutableVariantOp variant,
                   const kiln::KernelSymbols &symbols) const override {
    return kiln::serializeLLVMVariant(variant, symbols);
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, bufferization::BufferizationDialect,
                    func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                    memref::MemRefDialect, scf::SCFDialect>();
  }
};

class LoopsPlugin : public kiln::Plugin {
public:
  void getTargetBackends(
      std::vector<std::unique_ptr<kiln::TargetBackend>> &backends) override {
    backends.push_back(std::make_unique<LoopsTargetBackend>());
  }
};

} // namespace

KILN_PLUGIN_REGISTRATION(test_loops, registrar) {
  return registrar.registerPlugin(
      {"test_loops", "0.1",
       "Test: the target backend test-loops, plain loops compiled on its own"},
      [] { return std::make_unique<LoopsPlugin>(); });
}
