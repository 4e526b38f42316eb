//===- TestPlugins.cpp - Plugins for Kiln's plugin tests ------------------===//
//
// One shared object, three plugins:
// - test_first: after the input phase, appends its tag (--test_first-tag,
//   default "first") to the module's `test.order` array;
// - test_second: depends on test_first, appends "second" the same way;
// - test_fail: before global optimization, runs a pass that fails.
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginAPI.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {

/// Appends `tag` to the module's `test.order` array.
struct RecordPass : public PassWrapper<RecordPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RecordPass)

  RecordPass() = default;
  RecordPass(const RecordPass &other) : PassWrapper(other) {}
  explicit RecordPass(llvm::StringRef text) { tag = text.str(); }

  llvm::StringRef getArgument() const override { return "test-record"; }
  llvm::StringRef getDescription() const override {
    return "Append a tag to the module's test.order (test plugins)";
  }

  void runOnOperation() override {
    Builder builder(&getContext());
    llvm::SmallVector<Attribute> order;
    if (auto existing = getOperation()->getAttrOfType<ArrayAttr>("test.order"))
      llvm::append_range(order, existing.getValue());
    order.push_back(builder.getStringAttr(tag));
    getOperation()->setAttr("test.order", builder.getArrayAttr(order));
  }

  Option<std::string> tag{*this, "tag", llvm::cl::desc("The tag"),
                          llvm::cl::init("tag")};
};

/// Fails, with an error on the module.
struct FailPass : public PassWrapper<FailPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FailPass)
  llvm::StringRef getArgument() const override { return "test-fail"; }
  llvm::StringRef getDescription() const override {
    return "Fail (test plugins)";
  }
  void runOnOperation() override {
    getOperation().emitError("test-fail: failing as asked");
    signalPassFailure();
  }
};

class RecordingPlugin : public kiln::Plugin {
public:
  explicit RecordingPlugin(std::string tag) : defaultTag(std::move(tag)) {}

  void registerOptions(kiln::PluginOptions &options) override {
    tag = &options.add<std::string>("tag", "The tag to record", defaultTag);
  }
  void addPassesAfter(kiln::Phase phase, OpPassManager &pm) override {
    if (phase == kiln::Phase::Input)
      pm.addPass(std::make_unique<RecordPass>(tag->getValue()));
  }

private:
  std::string defaultTag;
  llvm::cl::opt<std::string> *tag = nullptr;
};

class FailingPlugin : public kiln::Plugin {
public:
  void registerPasses() override { PassRegistration<FailPass>(); }
  void addPassesBefore(kiln::Phase phase, OpPassManager &pm) override {
    if (phase == kiln::Phase::GlobalOptimization)
      pm.addPass(std::make_unique<FailPass>());
  }
};

} // namespace

KILN_PLUGIN_REGISTRATION(test_plugins, registrar) {
  PassRegistration<RecordPass>();
  if (llvm::Error error = registrar.registerPlugin(
          {"test_first", "0.1", "Test: records 'first' after input"},
          [] { return std::make_unique<RecordingPlugin>("first"); }))
    return error;
  if (llvm::Error error = registrar.registerPlugin(
          {"test_second", "0.2", "Test: records 'second', needs test_first",
           /*dependencies=*/{"test_first"}},
          [] { return std::make_unique<RecordingPlugin>("second"); }))
    return error;
  return registrar.registerPlugin(
      {"test_fail", "0.3", "Test: a pass that fails"},
      [] { return std::make_unique<FailingPlugin>(); });
}
