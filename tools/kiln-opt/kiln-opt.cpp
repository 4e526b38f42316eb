//===- kiln-opt.cpp - Kiln's opt tool -------------------------------------===//
//
// mlir-opt with Kiln's dialect, passes and phase pipelines
// (--kiln-phase-<name>) added to upstream's.
//
//===----------------------------------------------------------------------===//

#include "kiln/Driver/InitAll.h"
#include "kiln/Pipeline/Pipeline.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  kiln::registerKilnPasses();
  kiln::registerKilnComponents();
  kiln::registerPipelineFlags();
  kiln::registerDriverFlags();
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Kiln optimizer driver\n", registry));
}
