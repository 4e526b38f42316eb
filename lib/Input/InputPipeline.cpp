//===- InputPipeline.cpp - The input phase --------------------------------===//
//
// Assembles the input phase from its passes.
//
//===----------------------------------------------------------------------===//

#include "kiln/Input/Passes.h"
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::populateInputPasses(OpPassManager &pm, const InputOptions &options) {
  ConvertInputPassOptions convertOptions;
  convertOptions.inputType = options.inputType;
  pm.addPass(createConvertInputPass(convertOptions));
  pm.addPass(createCanonicalizerPass());
  // Canonicalization computes the sizes of folded ops with dynamic shapes
  // (a fill of a pad's size) as affine.apply: back to arith, which every
  // later phase reads.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createVerifyInputLegalityPass());
}
