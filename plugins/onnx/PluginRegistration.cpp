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
  void registerOptions(kiln::PluginOptions &options) override {
    externalDataDir = &options.add<std::string>(
        "external-data-dir",
        "The folder the locations of a model's external data are relative "
        "to (default: the model's folder; a model read from stdin or memory "
        "needs it)");
    externalDataAnywhere = &options.add<bool>(
        "external-data-anywhere",
        "Let external data lead out of its folder (through links); by "
        "default a location that does is an error");
  }
  void getInputImporters(std::vector<kiln::InputImporter> &importers) override {
    kiln::onnx_plugin::ExternalDataOptions externalData;
    if (externalDataDir)
      externalData.folder = *externalDataDir;
    if (externalDataAnywhere)
      externalData.anywhere = *externalDataAnywhere;
    importers.push_back(kiln::onnx_plugin::getImporter(externalData));
  }

private:
  llvm::cl::opt<std::string> *externalDataDir = nullptr;
  llvm::cl::opt<bool> *externalDataAnywhere = nullptr;
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
