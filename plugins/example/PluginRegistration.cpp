//===- PluginRegistration.cpp - The example plugin ------------------------===//
//
// The template for new plugins: one pass, one flag, a hook at a phase
// boundary. With `--kiln-plugin=example --example-note=TEXT`, every function
// of the program carries `example.note = "TEXT"` from the input phase on.
// Copy the folder, rename the id, keep what you need.
//
//===----------------------------------------------------------------------===//

#include "kiln/Plugin/PluginAPI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace {

/// Sets `example.note` on every function.
struct AnnotatePass
    : public mlir::PassWrapper<AnnotatePass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AnnotatePass)

  AnnotatePass() = default;
  AnnotatePass(const AnnotatePass &other) : PassWrapper(other) {}
  explicit AnnotatePass(llvm::StringRef note) { this->note = note.str(); }

  llvm::StringRef getArgument() const override { return "example-annotate"; }
  llvm::StringRef getDescription() const override {
    return "Set example.note on every function (the example plugin)";
  }

  void runOnOperation() override {
    mlir::Builder builder(&getContext());
    getOperation().walk([&](mlir::func::FuncOp func) {
      func->setAttr("example.note", builder.getStringAttr(note));
    });
  }

  Option<std::string> note{*this, "note", llvm::cl::desc("The note"),
                           llvm::cl::init("hello")};
};

class ExamplePlugin : public kiln::Plugin {
public:
  void registerPasses() override { mlir::PassRegistration<AnnotatePass>(); }

  void registerOptions(kiln::PluginOptions &options) override {
    note = &options.add<std::string>(
        "note", "Annotate every function with this text (example.note)");
  }

  llvm::Error activate(kiln::PluginSession &) override {
    // Activation is where a plugin checks its flags.
    if (note->getNumOccurrences() && note->getValue().empty())
      return llvm::createStringError("--example-note must not be empty");
    return llvm::Error::success();
  }

  void addPassesAfter(kiln::Phase phase, mlir::OpPassManager &pm) override {
    if (phase == kiln::Phase::Input && !note->getValue().empty())
      pm.addPass(std::make_unique<AnnotatePass>(note->getValue()));
  }

private:
  llvm::cl::opt<std::string> *note = nullptr;
};

} // namespace

KILN_PLUGIN_REGISTRATION(example, registrar) {
  return registrar.registerPlugin(
      {/*id=*/"example", /*version=*/"1.0",
       /*description=*/"The template plugin: annotates functions"},
      [] { return std::make_unique<ExamplePlugin>(); });
}
