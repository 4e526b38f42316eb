//===- PluginRegistration.cpp - The ukernels plugin -----------------------===//
//
// Claims the dispatches that compute an f32 matmul and compiles them its
// own way: its own tile sizes, and the matmul replaced by a call of a
// hand-written micro-kernel, compiled into the module (UkernelPasses.cpp,
// --ukernels-mode=inline, the default) or imported from the runtime
// extension libkiln_ukernels_extension.so when the module loads
// (runtime/ukernels_extension.c, --ukernels-mode=import). Kiln's code
// generator still distributes the dispatch to workgroups, bufferizes it
// and lowers the rest to LLVM; every other dispatch takes the default
// path. Opt-in: --kiln-plugin=ukernels.
//
//===----------------------------------------------------------------------===//

#include "UkernelPasses.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Plugin/PluginAPI.h"
#include "mlir/Transforms/Passes.h"

namespace {

class UkernelsPlugin : public kiln::Plugin {
public:
  void registerPasses() override { kiln::ukernels::registerPasses(); }

  void registerOptions(kiln::PluginOptions &options) override {
    mode = &options.add<std::string>(
        "mode",
        "Where the micro-kernel is: 'inline' (compiled into the module) or "
        "'import' (from the runtime extension libkiln_ukernels_extension.so, "
        "resolved when the module loads)",
        "inline");
  }

  llvm::Error activate(kiln::PluginSession &session) override {
    llvm::StringRef value = mode ? llvm::StringRef(mode->getValue()) : "";
    if (value == "inline" || value == "import" || value.empty())
      return llvm::Error::success();
    return llvm::createStringError("--ukernels-mode must be 'inline' or "
                                   "'import', got '" +
                                   value + "'");
  }

  bool claimVariant(kiln::ExecutableVariantOp variant) override {
    return kiln::ukernels::hasF32Matmul(variant);
  }

  void buildClaimedConfigurationPipeline(mlir::OpPassManager &pm) override {
    // The matmul gets the plugin's config; anything else in the dispatch
    // (a fill, fused elementwise consumers) is tiled with it.
    pm.addPass(kiln::ukernels::createConfigureMatmulPass());
  }

  void buildClaimedCodegenPipeline(mlir::OpPassManager &pm) override {
    pm.addPass(kiln::createTileAndDistributeToWorkgroupsPass());
    mlir::OpPassManager &modulePm = pm.nest<mlir::ModuleOp>();
    modulePm.addPass(mlir::createCanonicalizerPass());
    modulePm.addPass(mlir::createCSEPass());
    kiln::addCPUBufferizationPasses(modulePm);
    bool import = mode && mode->getValue() == "import";
    modulePm.addPass(kiln::ukernels::createMatmulToUkernelPass(
        import ? kiln::ukernels::KernelMode::Import
               : kiln::ukernels::KernelMode::Inline));
    // The extension's micro-kernel: called through the module's slot.
    pm.addPass(kiln::createLowerKernelExternsPass());
    kiln::addCPULLVMLoweringPasses(pm.nest<mlir::ModuleOp>());
  }

private:
  llvm::cl::opt<std::string> *mode = nullptr;
};

} // namespace

KILN_PLUGIN_REGISTRATION(ukernels, registrar) {
  return registrar.registerPlugin(
      {/*id=*/"ukernels", /*version=*/"1.0",
       /*description=*/
       "f32 matmul dispatches through a hand-written "
       "micro-kernel"},
      [] { return std::make_unique<UkernelsPlugin>(); });
}
