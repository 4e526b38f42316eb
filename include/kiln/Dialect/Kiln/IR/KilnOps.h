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

/// The symbol of the kernel that implements `entryPoint` (@executable::
/// @export) once executables are linked into the host module.
std::string getKernelSymbolName(mlir::SymbolRefAttr entryPoint);

/// The workgroup scratch the kernels of `exportName` in `executable` need:
/// the largest over its variants, 0 when none says (a kernel not lowered
/// yet, or one from an object file).
uint64_t getWorkgroupScratchBytes(ExecutableOp executable,
                                  llvm::StringRef exportName);

/// Finds the executable `entryPoint` (@executable::@export) names, starting
/// the lookup at `from`; null when there is none.
ExecutableOp lookupExecutable(mlir::Operation *from,
                              mlir::SymbolRefAttr entryPoint,
                              mlir::SymbolTableCollection &symbols);
} // namespace kiln

#endif // KILN_DIALECT_KILN_IR_KILNOPS_H
