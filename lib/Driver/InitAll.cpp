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
#include "kiln/Compat/IREE/IREECompat.h"
#include "kiln/Configuration/Passes.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/DispatchFormation/Passes.h"
#include "kiln/ExecutableSources/Passes.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "kiln/Host/Passes.h"
#include "kiln/Input/Passes.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/PluginManager.h"
#include "kiln/Serialization/Passes.h"
#include "kiln/Target/LLVMCPU/LLVMCPUTarget.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ManagedStatic.h"

namespace {
struct DriverFlags {
  llvm::cl::opt<bool> ireeCompat{
      "kiln-iree-compat",
      llvm::cl::desc("Read the check/util/flow ops of IREE's test programs "
                     "(on by default; =false makes them unknown ops)"),
      llvm::cl::init(true)};
};
} // namespace

static llvm::ManagedStatic<DriverFlags> driverFlags;

void kiln::registerDriverFlags() { *driverFlags; }

bool kiln::isIREECompatEnabled() {
  return !driverFlags.isConstructed() || driverFlags->ireeCompat;
}

void kiln::registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<KilnDialect>();
  if (isIREECompatEnabled())
    registerIREECompatDialects(registry);
  PluginManager::get().registerDialects(registry);
  registerBufferizableOpInterfaceExternalModels(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void kiln::registerKilnPasses() {
  registerKilnInputPasses();
  registerKilnGlobalOptimizationPasses();
  registerKilnDispatchFormationPasses();
  registerKilnExecutableSourcesPasses();
  registerKilnConfigurationPasses();
  registerKilnCodegenPasses();
  registerKilnCodegenCommonPasses();
  registerKilnCodegenCPUPasses();
  registerKilnHostPasses();
  registerKilnSerializationPasses();
  registerKilnIREECompatPasses();
  registerPhasePipelines();
}

void kiln::registerKilnComponents() {
  static bool registered = [] {
    if (llvm::Error err =
            TargetRegistry::get().registerBackend(createLLVMCPUTargetBackend()))
      llvm::report_fatal_error(std::move(err));
    registerBuiltinInputConversions();
    if (isIREECompatEnabled())
      registerIREECompatInputConversion();
    return true;
  }();
  (void)registered;
}
