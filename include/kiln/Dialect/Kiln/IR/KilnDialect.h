//===- KilnDialect.h - Kiln dialect -----------------------------*- C++ -*-===//
//
// Declares the kiln dialect: executables, dispatches and lowering configs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_KILNDIALECT_H
#define KILN_DIALECT_KILN_IR_KILNDIALECT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Support/TypeID.h"
#include "llvm/ADT/DenseMap.h"

#include "kiln/Dialect/Kiln/IR/KilnOpsDialect.h.inc"

#endif // KILN_DIALECT_KILN_IR_KILNDIALECT_H
