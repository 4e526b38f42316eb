//===- KilnAttrs.h - Kiln attributes ----------------------------*- C++ -*-===//
//
// Declares #kiln.target and #kiln.lowering_config.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_KILNATTRS_H
#define KILN_DIALECT_KILN_IR_KILNATTRS_H

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Error.h"

#include "kiln/Dialect/Kiln/IR/KilnEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "kiln/Dialect/Kiln/IR/KilnAttrs.h.inc"

#endif // KILN_DIALECT_KILN_IR_KILNATTRS_H
