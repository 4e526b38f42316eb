//===- PluginRegistration.cpp - The ONNX front end plugin -----------------===//
//
// Reads ONNX models: `kiln-compile model.onnx` imports the file (found by
// its contents, or by --kiln-input-type=onnx) into `onnx.node` ops, and the
// `onnx` input conversion lowers those to linalg. On by default; it only
// adds an importer and an input conversion that other programs never
// select. `--kiln-plugin=-onnx` turns it off.
//
//===----------------------------------------------------------------------===//

#include "ONNX.h"
#include "kiln/Plugin/PluginAPI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace {
class ONNXPlugin : public kiln::Plugin {
public:
  void registerDialects(mlir::DialectRegistry &registry) override {
    registry.insert<kiln::onnx_plugin::ONNXDialect>();
  }
  void registerPasses() override {
    kiln::registerONNXEliminateSequencesPass();
    kiln::registerONNXConvertToLinalgPass();
  }
  void getInputConversions(
      std::vector<kiln::InputConversion> &conversions) override {
    conversions.push_back(kiln::onnx_plugin::getInputConversion());
  }
  void getInputImporters(std::vector<kiln::InputImporter> &importers) override {
    importers.push_back(kiln::onnx_plugin::getImporter());
  }
};
} // namespace

KILN_PLUGIN_REGISTRATION(onnx, registrar) {
  kiln::PluginDescription description{
      /*id=*/"onnx", /*version=*/"1.0",
      /*description=*/"Reads ONNX models (opsets 7 to 17) into linalg"};
  description.defaultOn = true;
  return registrar.registerPlugin(
      description, [] { return std::make_unique<ONNXPlugin>(); });
}
