//===- Passes.h - CPU codegen passes ----------------------------*- C++ -*-===//
//
// Declares the llvm-cpu backend's configuration and codegen pipelines and
// their passes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_CPU_PASSES_H
#define KILN_CODEGEN_CPU_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Codegen/CPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Codegen/CPU/Passes.h.inc"

/// A kernel's temporary buffers up to this many bytes live on its stack;
/// larger ones are allocated on the heap for every workgroup. Heuristics
/// keep the tiles they expect to be copied (padded input tiles) below it.
constexpr int64_t kMaxStackBufferBytes = 64 * 1024;

/// The configuration pipeline of the llvm-cpu backend, on one variant.
void buildCPUConfigurationPipeline(mlir::OpPassManager &variantPm);

/// The codegen pipeline of the llvm-cpu backend, on one variant: from
/// configured linalg on tensors to kernels in the LLVM dialect.
void buildCPUCodegenPipeline(mlir::OpPassManager &variantPm);

// Stages of the codegen pipeline, for plugins that compile the variants
// they claim partly their own way. Each runs on the variant's inner module.

/// Tensors to buffers: results written in place into the output bindings,
/// temporaries on the stack when small, freed when not.
void addCPUBufferizationPasses(mlir::OpPassManager &modulePm);

/// Buffers, vectors, loops and the kernel interface to the LLVM dialect.
void addCPULLVMLoweringPasses(mlir::OpPassManager &modulePm);

/// Fails, saying why through `emitError`, when the llvm-cpu codegen
/// pipeline cannot honor `config` on `root`: an unknown pipeline, the
/// contraction pipeline on an op that is no contraction, a register tile
/// too big for vector registers. The loop count is checked elsewhere.
llvm::LogicalResult verifyCPULoweringConfig(
    mlir::Operation *root, LoweringConfigAttr config,
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_PASSES_H
