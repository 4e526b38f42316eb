//===- Passes.h - Host lowering passes --------------------------*- C++ -*-===//
//
// Declares the host phase and its passes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_HOST_PASSES_H
#define KILN_HOST_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Host/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Host/Passes.h.inc"

/// Attaches bufferization to kiln.dispatch: it becomes kiln.launch on
/// buffers, its results allocated on the host.
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);

/// Adds the host phase to a module pass manager.
void populateHostPasses(mlir::OpPassManager &pm);

} // namespace kiln

#endif // KILN_HOST_PASSES_H
