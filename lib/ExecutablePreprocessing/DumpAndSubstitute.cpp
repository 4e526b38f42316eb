//===- DumpAndSubstitute.cpp - Reproducers for executables ----------------===//
//
// --kiln-dump-executables-to=DIR writes every executable as it stands at a
// stage (sources, preprocessed, configured); --kiln-substitute-executable=
// NAME=FILE puts the executable in FILE in place of the one called NAME,
// after preprocessing. Together: dump, edit or reduce one executable, and
// compile the program with it.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutablePreprocessing/CheckInterface.h"
#include "kiln/ExecutablePreprocessing/Preprocess.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/Support/WriteFile.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace kiln;

namespace {

class DumpExecutablesPass
    : public PassWrapper<DumpExecutablesPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DumpExecutablesPass)

  DumpExecutablesPass(std::string dir, std::string stage)
      : dir(std::move(dir)), stage(std::move(stage)) {}
  llvm::StringRef getArgument() const override {
    return "kiln-dump-executables";
  }
  llvm::StringRef getDescription() const override {
    return "Write every executable to a folder";
  }

  void runOnOperation() override {
    if (std::error_code error = llvm::sys::fs::create_directories(dir)) {
      getOperation().emitError() << "cannot create --kiln-dump-executables-to "
                                    "folder '"
                                 << dir << "': " << error.message();
      return signalPassFailure();
    }
    for (ExecutableOp executable : getOperation().getOps<ExecutableOp>()) {
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path,
                              executable.getSymName() + "." + stage + ".mlir");
      llvm::Error error = writeFile(path, [&](llvm::raw_ostream &os) {
        executable->print(os,
                          OpPrintingFlags().useLocalScope().assumeVerified());
        os << "\n";
        return llvm::Error::success();
      });
      if (error) {
        executable.emitError() << llvm::toString(std::move(error));
        return signalPassFailure();
      }
    }
  }

private:
  std::string dir;
  std::string stage;
};

class SubstituteExecutablesPass
    : public PassWrapper<SubstituteExecutablesPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SubstituteExecutablesPass)

  explicit SubstituteExecutablesPass(std::vector<std::string> specs)
      : specs(std::move(specs)) {}
  llvm::StringRef getArgument() const override {
    return "kiln-substitute-executables";
  }
  llvm::StringRef getDescription() const override {
    return "Replace executables with the ones in files";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (const std::string &spec : specs) {
      auto [name, file] = llvm::StringRef(spec).split('=');
      ExecutableOp target;
      for (ExecutableOp executable : module.getOps<ExecutableOp>())
        if (executable.getSymName() == name)
          target = executable;
      if (!target) {
        module.emitError()
            << "--kiln-substitute-executable=" << spec
            << ": the program has no executable @" << name << "; it has "
            << llvm::join(llvm::map_range(module.getOps<ExecutableOp>(),
                                          [](ExecutableOp e) {
                                            return "@" + e.getSymName().str();
                                          }),
                          ", ");
        return signalPassFailure();
      }
      llvm::SourceMgr sourceMgr;
      std::string message;
      auto buffer = llvm::MemoryBuffer::getFile(file);
      if (!buffer) {
        target.emitError() << "--kiln-substitute-executable=" << spec
                           << ": cannot read '" << file
                           << "': " << buffer.getError().message();
        return signalPassFailure();
      }
      sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
      OwningOpRef<ModuleOp> parsed;
      if (succeeded(checkNesting(sourceMgr, &getContext())))
        parsed =
            parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&getContext()));
      if (!parsed) {
        target.emitError() << "--kiln-substitute-executable=" << spec << ": '"
                           << file << "' is not valid MLIR (see "
                           << "above)";
        return signalPassFailure();
      }
      std::string why;
      FailureOr<ExecutableOp> replacement =
          getReplacementExecutable(*parsed, name, why);
      if (failed(replacement)) {
        target.emitError() << "--kiln-substitute-executable=" << spec << ": '"
                           << file << "' cannot replace @" << name << ": "
                           << why;
        return signalPassFailure();
      }
      if (failed(replaceExecutable(target, *replacement, why))) {
        target.emitError() << "--kiln-substitute-executable=" << spec << ": '"
                           << file << "' does not fit the dispatches of @"
                           << name << ": " << why;
        return signalPassFailure();
      }
    }
  }

private:
  std::vector<std::string> specs;
};

} // namespace

std::unique_ptr<Pass> kiln::createDumpExecutablesPass(std::string dir,
                                                      std::string stage) {
  return std::make_unique<DumpExecutablesPass>(std::move(dir),
                                               std::move(stage));
}

std::unique_ptr<Pass>
kiln::createSubstituteExecutablesPass(std::vector<std::string> specs) {
  return std::make_unique<SubstituteExecutablesPass>(std::move(specs));
}
