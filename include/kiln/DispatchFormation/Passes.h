//===- Passes.h - Dispatch formation passes ---------------------*- C++ -*-===//
//
// Declares the dispatch formation phase and its passes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DISPATCHFORMATION_PASSES_H
#define KILN_DISPATCHFORMATION_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/DispatchFormation/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/DispatchFormation/Passes.h.inc"

/// Adds the dispatch formation phase: form regions, outline them,
/// deduplicate executables and clean up the host code.
void populateDispatchFormationPasses(mlir::OpPassManager &pm);

} // namespace kiln

#endif // KILN_DISPATCHFORMATION_PASSES_H
