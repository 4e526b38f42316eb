//===- InitAll.cpp - Register everything Kiln's tools use -----------------===//
//
// Registration of dialects, passes, pipelines, target backends and input
// conversions.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/InitAll.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Codegen/Passes.h"
#include "kiln/Configuration/Passes.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/DispatchFormation/Passes.h"
#include "kiln/ExecutableSources/Passes.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "kiln/Host/Passes.h"
#include "kiln/Input/Passes.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/RuntimeChecks/Passes.h"
#include "kiln/Serialization/Passes.h"
#include "kiln/Target/LLVMCPU/LLVMCPUTarget.h"
#include "kiln/TuningSpecs/Passes.h"
#include "kiln/TuningSpecs/TransformOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ManagedStatic.h"

void kiln::registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<KilnDialect>();
  registerTransformExtension(registry);
  PluginManager::get().registerDialects(registry);
  registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void kiln::registerKilnPasses() {
  registerKilnInputPasses();
  registerKilnGlobalOptimizationPasses();
  registerKilnRuntimeChecksPasses();
  registerKilnDispatchFormationPasses();
  registerKilnExecutableSourcesPasses();
  registerKilnConfigurationPasses();
  registerKilnCodegenPasses();
  registerKilnCodegenCommonPasses();
  registerKilnCodegenCPUPasses();
  registerKilnHostPasses();
  registerKilnSerializationPasses();
  registerKilnTuningSpecsPasses();
  registerPhasePipelines();
}

void kiln::registerKilnComponents() {
  static bool registered = [] {
    if (llvm::Error err = TargetRegistry::getBuiltin().registerBackend(
            createLLVMCPUTargetBackend()))
      llvm::report_fatal_error(std::move(err));
    registerBuiltinInputConversions();
    return true;
  }();
  (void)registered;
}
