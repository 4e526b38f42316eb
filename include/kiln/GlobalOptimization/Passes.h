//===- Passes.h - Global optimization passes --------------------*- C++ -*-===//
//
// Declares the global optimization phase and its passes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_GLOBALOPTIMIZATION_PASSES_H
#define KILN_GLOBALOPTIMIZATION_PASSES_H

#include "kiln/GlobalOptimization/Options.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

struct TargetOptions;

#define GEN_PASS_DECL
#include "kiln/GlobalOptimization/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/GlobalOptimization/Passes.h.inc"

/// Adds the global optimization phase: elementwise ops on tensors to linalg,
/// f32 accumulators for narrow floats, constant weights laid out for
/// `target`, elementwise fusion, constant folding, canonicalization and
/// CSE.
void populateGlobalOptimizationPasses(mlir::OpPassManager &pm,
                                      const GlobalOptimizationOptions &options,
                                      const TargetOptions &target);

} // namespace kiln

#endif // KILN_GLOBALOPTIMIZATION_PASSES_H
