//===- ApplyTransformSpec.cpp - A transform script on the whole program ---===//
//
// --kiln-preprocessing-transform-spec=FILE: in the preprocessing phase, the
// transform-dialect script in FILE (a module with a
// `transform.named_sequence @__transform_main`) is applied to the program.
// A file that does not parse, or has no entry point, fails the compile
// with the parser's or the interpreter's error.
//
//===----------------------------------------------------------------------===//

#include "kiln/Files/FilesRead.h"
#include "kiln/Files/InputFiles.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Support/CheckNesting.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace kiln;

namespace {
class ApplyTransformSpecPass
    : public PassWrapper<ApplyTransformSpecPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApplyTransformSpecPass)

  explicit ApplyTransformSpecPass(std::string path) : path(std::move(path)) {}
  llvm::StringRef getArgument() const override {
    return "kiln-apply-transform-spec";
  }
  llvm::StringRef getDescription() const override {
    return "Apply a transform-dialect script to the program";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<transform::TransformDialect>();
  }

  void runOnOperation() override {
    ModuleOp program = getOperation();
    llvm::SourceMgr sourceMgr;
    std::string message;
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        readInputFile(path, "transform spec");
    if (!buffer) {
      program.emitError() << "--kiln-preprocessing-transform-spec: "
                          << llvm::toString(buffer.takeError());
      return signalPassFailure();
    }
    noteFileRead(&getContext(), path,
                 "the --kiln-preprocessing-transform-spec script");
    sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
    OwningOpRef<ModuleOp> spec;
    if (succeeded(checkNesting(sourceMgr, &getContext())))
      spec = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&getContext()));
    if (!spec) {
      program.emitError() << "--kiln-preprocessing-transform-spec: '" << path
                          << "' is not valid MLIR (see above)";
      return signalPassFailure();
    }
    transform::TransformOpInterface entry =
        transform::detail::findTransformEntryPoint(*spec, ModuleOp());
    if (!entry) {
      program.emitError()
          << "--kiln-preprocessing-transform-spec: '" << path
          << "' has no transform.named_sequence @"
          << transform::TransformDialect::kTransformEntryPointSymbolName;
      return signalPassFailure();
    }
    if (failed(transform::applyTransformNamedSequence(
            program, entry, *spec, transform::TransformOptions()))) {
      program.emitError() << "--kiln-preprocessing-transform-spec: applying '"
                          << path << "' failed (see above)";
      return signalPassFailure();
    }
  }

private:
  std::string path;
};
} // namespace

std::unique_ptr<Pass> kiln::createApplyTransformSpecPass(std::string path) {
  return std::make_unique<ApplyTransformSpecPass>(std::move(path));
}
