//===- DefaultOnPasses.cpp - A default-on plugin that adds passes ---------===//
//
// Default-on plugins may only add opt-in capabilities; this one adds a pass
// to the pipeline, which Kiln refuses unless the compile asks for it.
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginAPI.h"
#include "mlir/Transforms/Passes.h"

namespace {
class DefaultOnPasses : public kiln::Plugin {
public:
  void addPassesAfter(kiln::Phase phase, mlir::OpPassManager &pm) override {
    if (phase == kiln::Phase::Input)
      pm.addPass(mlir::createCanonicalizerPass());
  }
};
} // namespace

KILN_PLUGIN_REGISTRATION(test_default_on_passes, registrar) {
  kiln::PluginDescription description{
      "test_default_on_passes", "0.1",
      "Test: on by default, adds a pass after input"};
  description.defaultOn = true;
  return registrar.registerPlugin(
      description, [] { return std::make_unique<DefaultOnPasses>(); });
}
