//===- Passes.h - Run-time checks -------------------------------*- C++ -*-===//
//
// Declares the passes that check at run time what the compiler cannot
// check at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIMECHECKS_PASSES_H
#define KILN_RUNTIMECHECKS_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/RuntimeChecks/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/RuntimeChecks/Passes.h.inc"

} // namespace kiln

#endif // KILN_RUNTIMECHECKS_PASSES_H
