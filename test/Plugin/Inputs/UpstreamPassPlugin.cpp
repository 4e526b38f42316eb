//===- UpstreamPassPlugin.cpp - An upstream MLIR pass plugin --------------===//
//
// Not a Kiln plugin: what MLIR's --load-pass-plugin loads. Its pass,
// test-upstream-strip, erases every op of the test_up dialect (see
// UpstreamDialectPlugin.cpp) and marks the module test.upstream.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

using namespace mlir;

namespace {
struct StripPass : public PassWrapper<StripPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(StripPass)
  StringRef getArgument() const override { return "test-upstream-strip"; }
  StringRef getDescription() const override {
    return "Erase test_up ops (an upstream pass plugin)";
  }
  void runOnOperation() override {
    SmallVector<Operation *> doomed;
    getOperation().walk([&](Operation *op) {
      if (op->getName().getDialectNamespace() == "test_up")
        doomed.push_back(op);
    });
    for (Operation *op : doomed)
      op->erase();
    getOperation()->setAttr("test.upstream", UnitAttr::get(&getContext()));
  }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TestUpstreamPasses", "0.1",
          [] { PassRegistration<StripPass>(); }};
}
