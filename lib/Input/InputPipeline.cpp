//===- InputPipeline.cpp - The input phase --------------------------------===//
//
// Assembles the input phase from its passes.
//
//===----------------------------------------------------------------------===//

#include "kiln/Input/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void kiln::populateInputPasses(OpPassManager &pm, const InputOptions &options) {
  ConvertInputPassOptions convertOptions;
  convertOptions.inputType = options.inputType;
  pm.addPass(createConvertInputPass(convertOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createVerifyInputLegalityPass());
}
