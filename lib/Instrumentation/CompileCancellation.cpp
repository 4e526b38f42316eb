//===- CompileCancellation.cpp - Stopping a compile early -----------------===//

#include "kiln/Instrumentation/CompileCancellation.h"

MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::CompileCancellation)
