//===- PluginRegistration.cpp - An out-of-tree Kiln plugin ----------------===//
//
// Counts what dispatch formation made of the program: after the
// dispatch-formation phase, every function gets `<tag>.dispatches = N`, the
// number of kiln.dispatch ops it calls. `--hello-tag=NAME` picks the
// attribute's prefix (default "hello"). Its pass, hello-count-dispatches,
// works in kiln-opt too.
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginAPI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace {

struct CountDispatchesPass
    : public mlir::PassWrapper<CountDispatchesPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CountDispatchesPass)

  CountDispatchesPass() = default;
  CountDispatchesPass(const CountDispatchesPass &other) : PassWrapper(other) {}
  explicit CountDispatchesPass(llvm::StringRef prefix) { tag = prefix.str(); }

  llvm::StringRef getArgument() const override {
    return "hello-count-dispatches";
  }
  llvm::StringRef getDescription() const override {
    return "Set <tag>.dispatches on every function (the hello plugin)";
  }

  void runOnOperation() override {
    mlir::Builder builder(&getContext());
    getOperation().walk([&](mlir::func::FuncOp func) {
      int64_t count = 0;
      func.walk([&](kiln::DispatchOp) { ++count; });
      func->setAttr(tag + ".dispatches", builder.getI64IntegerAttr(count));
    });
  }

  Option<std::string> tag{*this, "tag", llvm::cl::desc("Attribute prefix"),
                          llvm::cl::init("hello")};
};

class HelloPlugin : public kiln::Plugin {
public:
  void registerPasses() override {
    mlir::PassRegistration<CountDispatchesPass>();
  }

  void registerOptions(kiln::PluginOptions &options) override {
    tag = &options.add<std::string>(
        "tag", "Prefix of the attribute that counts dispatches", "hello");
  }

  void addPassesAfter(kiln::Phase phase, mlir::OpPassManager &pm) override {
    if (phase == kiln::Phase::DispatchFormation)
      pm.addPass(std::make_unique<CountDispatchesPass>(tag->getValue()));
  }

private:
  llvm::cl::opt<std::string> *tag = nullptr;
};

} // namespace

KILN_PLUGIN_REGISTRATION(hello, registrar) {
  return registrar.registerPlugin(
      {/*id=*/"hello", /*version=*/"0.1",
       /*description=*/"Out-of-tree sample: counts dispatches"},
      [] { return std::make_unique<HelloPlugin>(); });
}
