//===- TosaInputConversion.cpp - TOSA to linalg on tensors ----------------===//
//
// The built-in `tosa` input conversion: upstream's TOSA-to-linalg pipelines
// plus TOSA-to-SCF (control flow), -arith (constants, rescales) and -tensor
// (reshapes, slices, padding, concatenation).
//
//===----------------------------------------------------------------------===//

#include "kiln/Input/Passes.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

static bool usesTosa(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (op->getName().getDialectNamespace() !=
        tosa::TosaDialect::getDialectNamespace())
      return WalkResult::advance();
    found = true;
    return WalkResult::interrupt();
  });
  return found;
}

static void buildTosaPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createTosaToSCFPass());
  // No TOSA validation: it rejects valid programs Kiln compiles fine, such
  // as a tosa.table whose table is computed rather than constant.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(),
                              /*validationOptions=*/std::nullopt);
  TosaToArithPassOptions arithOptions;
  arithOptions.includeApplyRescale = true;
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass(arithOptions));
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  // Shape operands (tosa.const_shape) are dead once their users converted.
  pm.addPass(createCanonicalizerPass());
}

void kiln::registerBuiltinInputConversions() {
  // Idempotent: a second call finds tosa there already.
  llvm::consumeError(InputConversionRegistry::getBuiltin().add(
      {"tosa", usesTosa, buildTosaPipeline}));
}
