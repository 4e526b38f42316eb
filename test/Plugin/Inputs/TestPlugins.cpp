//===- TestPlugins.cpp - Plugins for Kiln's plugin tests ------------------===//
//
// One shared object, four plugins:
// - test_first: after the input phase, appends its tag (--test_first-tag,
//   default "first") to the module's `test.order` array;
// - test_second: depends on test_first, appends "second" the same way;
// - test_fail: before global optimization, runs a pass that fails;
// - test_target: adds the target backend "test-cpu", which marks the
//   variants it configures and otherwise compiles them as llvm-cpu does.
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginAPI.h"
#include "kiln/Target/TargetBackend.h"
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

/// Marks a variant `test.configured_by = "test-cpu"`.
struct MarkVariantPass
    : public PassWrapper<MarkVariantPass,
                         OperationPass<kiln::ExecutableVariantOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MarkVariantPass)
  llvm::StringRef getArgument() const override { return "test-mark-variant"; }
  llvm::StringRef getDescription() const override {
    return "Mark a variant configured by test-cpu (test plugins)";
  }
  void runOnOperation() override {
    getOperation()->setAttr("test.configured_by",
                            StringAttr::get(&getContext(), "test-cpu"));
  }
};

/// llvm-cpu under another name, with a mark of its own.
class TestTargetBackend : public kiln::TargetBackend {
public:
  llvm::StringRef getName() const override { return "test-cpu"; }
  llvm::StringRef getDescription() const override {
    return "llvm-cpu, by way of the test_target plugin";
  }
  llvm::Expected<kiln::TargetAttr>
  getTargetAttr(MLIRContext *context,
                const kiln::TargetRequest &request) const override {
    llvm::Expected<kiln::TargetAttr> cpu =
        llvmCPU().getTargetAttr(context, request);
    if (!cpu)
      return cpu.takeError();
    return kiln::TargetAttr::get(context, StringAttr::get(context, getName()),
                                 cpu->getConfiguration());
  }
  void buildConfigurationPipeline(OpPassManager &pm) const override {
    pm.addPass(std::make_unique<MarkVariantPass>());
    llvmCPU().buildConfigurationPipeline(pm);
  }
  void buildCodegenPipeline(OpPassManager &pm) const override {
    llvmCPU().buildCodegenPipeline(pm);
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    llvmCPU().getDependentDialects(registry);
  }

private:
  static const kiln::TargetBackend &llvmCPU() {
    return **kiln::TargetRegistry::getBuiltin().lookup("llvm-cpu");
  }
};

class TargetPlugin : public kiln::Plugin {
public:
  void getTargetBackends(
      std::vector<std::unique_ptr<kiln::TargetBackend>> &backends) override {
    backends.push_back(std::make_unique<TestTargetBackend>());
  }
};

/// Contributes a tuning spec that configures every f32 matmul of at least
/// 256 in each dimension.
class TuningPlugin : public kiln::Plugin {
public:
  void getTuningSpecs(std::vector<kiln::TuningSpecSource> &specs) override {
    specs.push_back({"test-tuning.mlir", R"mlir(
module attributes {transform.with_named_sequence, kiln.tuning_spec_version = 1 : i64} {
  transform.named_sequence @match(%op: !transform.any_op {transform.readonly}) -> !transform.any_op {
    transform.kiln.match.contraction %op {m = [256], n = [256], k = [256], element_types = [f32, f32, f32], unconfigured} : !transform.any_op
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @set(%op: !transform.any_op {transform.readonly}) {
    transform.kiln.set_lowering_config %op (#kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [16, 64, 0], register = [8, 32, 1]>) : !transform.any_op
    transform.yield
  }
  transform.named_sequence @plugin_entry(%root: !transform.any_op {transform.consumed}) -> !transform.any_op attributes {kiln.tuning_spec_entrypoint} {
    %r = transform.foreach_match in %root @match -> @set : (!transform.any_op) -> !transform.any_op
    transform.yield %r : !transform.any_op
  }
}
)mlir"});
  }
};

/// Contributes a tuning spec that is not one (no format version).
class BadTuningPlugin : public kiln::Plugin {
public:
  void getTuningSpecs(std::vector<kiln::TuningSpecSource> &specs) override {
    specs.push_back({"bad-tuning.mlir",
                     "module attributes {transform.with_named_sequence} {\n"
                     "}\n"});
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
  if (llvm::Error error = registrar.registerPlugin(
          {"test_fail", "0.3", "Test: a pass that fails"},
          [] { return std::make_unique<FailingPlugin>(); }))
    return error;
  if (llvm::Error error = registrar.registerPlugin(
          {"test_target", "0.4", "Test: the target backend test-cpu"},
          [] { return std::make_unique<TargetPlugin>(); }))
    return error;
  if (llvm::Error error = registrar.registerPlugin(
          {"test_tuning", "0.5", "Test: a tuning spec for f32 matmuls"},
          [] { return std::make_unique<TuningPlugin>(); }))
    return error;
  return registrar.registerPlugin(
      {"test_bad_tuning", "0.6", "Test: a broken tuning spec"},
      [] { return std::make_unique<BadTuningPlugin>(); });
}
