//===- SerializationPipeline.cpp - The serialization phase ----------------===//
//
// The passes before writing: link the executables into the host module.
//
//===----------------------------------------------------------------------===//

#include "kiln/Serialization/Passes.h"

void kiln::populateSerializationPasses(mlir::OpPassManager &pm) {
  pm.addPass(createLinkExecutablesPass());
}
