//===- TransformOps.h - Kiln's transform-dialect extension ------*- C++ -*-===//
//
// The matchers and the action tuning specs are written with
// (transform.kiln.*), see TransformOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNINGSPECS_TRANSFORMOPS_H
#define KILN_TUNINGSPECS_TRANSFORMOPS_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/MatchInterfaces.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/DialectRegistry.h"

#define GET_OP_CLASSES
#include "kiln/TuningSpecs/TransformOps.h.inc"

namespace kiln {

/// Adds Kiln's ops to the transform dialect when it is loaded.
void registerTransformExtension(mlir::DialectRegistry &registry);

} // namespace kiln

#endif // KILN_TUNINGSPECS_TRANSFORMOPS_H
