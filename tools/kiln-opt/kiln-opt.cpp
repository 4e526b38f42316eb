//===- kiln-opt.cpp - Kiln's opt tool -------------------------------------===//
//
// mlir-opt with Kiln's dialect, passes and phase pipelines
// (--kiln-phase-<name>) added to upstream's, and Kiln's plugins: their
// dialects, passes and flags, and the hooks of the active ones in the phase
// pipelines.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/InitAll.h"
#include "kiln/Pipeline/Pipeline.h"
#include "kiln/Plugin/PluginManager.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  kiln::registerKilnPasses();
  kiln::registerKilnComponents();
  kiln::registerPipelineFlags();
  if (llvm::Error error = kiln::initializePlugins(argc, argv)) {
    llvm::errs() << "kiln-opt: error: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "Kiln optimizer driver\n", registry);

  // The plugins the flags activate take part in the phase pipelines.
  kiln::PluginSession session;
  session.requestFromFlags();
  if (llvm::Error error = session.activate()) {
    llvm::errs() << "kiln-opt: error: " << llvm::toString(std::move(error))
                 << "\n";
    return 1;
  }
  session.makeCurrent();
  if (kiln::shouldListPlugins()) {
    llvm::outs() << kiln::describePlugins(&session);
    return 0;
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
