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

/// The name the micro-kernel has in the runtime extension
/// (libkiln_ukernels_extension.so, runtime/ukernels_extension.c).
inline constexpr llvm::StringLiteral kExternName = "kiln_ukernels.matmul_f32";

/// Where the micro-kernel's code is: compiled into every module that uses
/// it, or in the runtime extension, which the runtime resolves at load.
enum class KernelMode { Inline, Import };

/// On a variant's inner module, after bufferization: replaces each f32
/// linalg.matmul on memrefs with a call of the micro-kernel: a call of the
/// MLIR micro-kernel, which it adds to the module (inline), or a
/// kiln.call_kernel_extern of the extension's (import), with pointers,
/// leading dimensions and sizes.
std::unique_ptr<mlir::Pass> createMatmulToUkernelPass(KernelMode mode);

void registerPasses();

} // namespace kiln::ukernels

#endif // KILN_PLUGINS_UKERNELS_UKERNELPASSES_H
