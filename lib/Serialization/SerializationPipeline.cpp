//===- SerializationPipeline.cpp - The serialization phase ----------------===//
//
// The passes before writing: every executable to object code, executables in
// parallel, then their objects listed on the host module.
//
//===----------------------------------------------------------------------===//

#include "kiln/Serialization/Passes.h"

using namespace kiln;

void kiln::populateSerializationPasses(mlir::OpPassManager &pm,
                                       const SerializationOptions &options) {
  SerializeExecutablesPassOptions serialize;
  serialize.objectCache = options.objectCacheDir;
  pm.nest<ExecutableOp>().addPass(createSerializeExecutablesPass(serialize));
  pm.addPass(createLinkExecutablesPass());
}

void kiln::populateObjectCacheLookup(mlir::OpPassManager &pm,
                                     const SerializationOptions &options) {
  if (options.objectCacheDir.empty())
    return;
  LookupCachedObjectsPassOptions lookup;
  lookup.objectCache = options.objectCacheDir;
  lookup.fingerprint = options.fingerprint;
  pm.nest<ExecutableOp>().addPass(createLookupCachedObjectsPass(lookup));
}
