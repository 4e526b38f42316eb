//===- UkernelPasses.h - The ukernels plugin's passes -----------*- C++ -*-===//

#ifndef KILN_PLUGINS_UKERNELS_UKERNELPASSES_H
#define KILN_PLUGINS_UKERNELS_UKERNELPASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::ukernels {

/// The name of the micro-kernel function added to a claimed variant.
inline constexpr llvm::StringLiteral kKernelName = "kiln_ukernels_matmul_f32";

/// True when `variant` computes an f32 linalg.matmul (what the plugin
/// claims).
bool hasF32Matmul(ExecutableVariantOp variant);

/// On a claimed variant: gives each f32 matmul the plugin's own lowering
/// config (pipeline "ukernels-matmul"): workgroup tiles in multiples of the
/// micro-kernel's register tile. Ops fused with the matmul follow it into
/// its workgroups.
std::unique_ptr<mlir::Pass> createConfigureMatmulPass();

/// On a variant's inner module, after bufferization: replaces each f32
/// linalg.matmul on memrefs with a call of the micro-kernel, which it adds
/// to the module.
std::unique_ptr<mlir::Pass> createMatmulToUkernelPass();

void registerPasses();

} // namespace kiln::ukernels

#endif // KILN_PLUGINS_UKERNELS_UKERNELPASSES_H
