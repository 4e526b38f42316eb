//===- KilnOps.h - Kiln operations ------------------------------*- C++ -*-===//
//
// Declares the ops of the kiln dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_KILNOPS_H
#define KILN_DIALECT_KILN_IR_KILNOPS_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln {
class ExecutableVariantOp;
class ExecutableExportOp;
class DispatchRegionOp;
} // namespace kiln

#define GET_OP_CLASSES
#include "kiln/Dialect/Kiln/IR/KilnOps.h.inc"

namespace kiln {
/// Finds the export `dispatch` calls: in an executable in source form, the
/// export itself; in target form, the export of the first variant. Returns
/// null when the executable or the export does not exist.
ExecutableExportOp lookupDispatchExport(DispatchOp dispatch,
                                        mlir::SymbolTableCollection &symbols);

/// The symbol of the kernel that implements `entryPoint` once executables
/// are linked into the host module: `@executable::@export`, the kernel of
/// an executable's one variant, or `@executable::@variant::@export`, one
/// of several variants' (kiln.variant_targets).
std::string getKernelSymbolName(mlir::SymbolRefAttr entryPoint);

/// Whether `executable` has more than one variant, whose kernels host code
/// launches by the variant the runtime picked (kiln.variant_index).
bool isMultiVariant(ExecutableOp executable);

/// What kiln.launch names `exportOp` of `variant` by: @executable::@export,
/// or @executable::@variant::@export when the executable has several
/// variants.
mlir::SymbolRefAttr getLaunchEntryPoint(ExecutableOp executable,
                                        ExecutableVariantOp variant,
                                        ExecutableExportOp exportOp);

/// The workgroup scratch the kernels of `exportName` in `executable` need:
/// the largest over its variants (or of variant `variantName` only, when
/// given), 0 when none says (a kernel not lowered yet, or one from an
/// object file).
uint64_t getWorkgroupScratchBytes(ExecutableOp executable,
                                  llvm::StringRef exportName,
                                  llvm::StringRef variantName = "");

/// Finds the executable `entryPoint` (@executable::@export) names, starting
/// the lookup at `from`; null when there is none.
ExecutableOp lookupExecutable(mlir::Operation *from,
                              mlir::SymbolRefAttr entryPoint,
                              mlir::SymbolTableCollection &symbols);
} // namespace kiln

#endif // KILN_DIALECT_KILN_IR_KILNOPS_H
