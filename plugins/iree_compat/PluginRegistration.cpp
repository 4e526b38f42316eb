//===- PluginRegistration.cpp - The IREE compatibility plugin -------------===//
//
// Reads IREE's end-to-end test programs (the conformance corpus): the
// `check`, `util` and `flow` dialects they use, and the `iree` input
// conversion into Kiln's ops. On by default, and it only adds an input
// conversion that programs without those dialects never select;
// `--kiln-plugin=-iree_compat` turns it off.
//
//===----------------------------------------------------------------------===//

#include "IREECompat.h"
#include "kiln/Plugin/PluginAPI.h"

namespace {
class IREECompatPlugin : public kiln::Plugin {
public:
  void registerDialects(mlir::DialectRegistry &registry) override {
    kiln::registerIREECompatDialects(registry);
  }
  void registerPasses() override { kiln::registerKilnIREECompatPasses(); }
  void getInputConversions(
      std::vector<kiln::InputConversion> &conversions) override {
    conversions.push_back(kiln::getIREECompatInputConversion());
  }
};
} // namespace

KILN_PLUGIN_REGISTRATION(iree_compat, registrar) {
  kiln::PluginDescription description{
      /*id=*/"iree_compat", /*version=*/"1.0",
      /*description=*/"Reads IREE's test programs: check, util and flow ops"};
  description.defaultOn = true;
  return registrar.registerPlugin(
      description, [] { return std::make_unique<IREECompatPlugin>(); });
}
