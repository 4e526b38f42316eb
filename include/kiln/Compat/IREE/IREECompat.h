//===- IREECompat.h - Reading IREE's test programs --------------*- C++ -*-===//
//
// The IREE compatibility layer: the `check`, `util` and `flow` ops IREE's
// end-to-end tests use, and their conversion into Kiln's ops. One switch
// (`--kiln-iree-compat`, on by default) registers or leaves out all of it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPAT_IREE_IREECOMPAT_H
#define KILN_COMPAT_IREE_IREECOMPAT_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Pass/Pass.h"

#include "kiln/Compat/IREE/CheckDialect.h.inc"
#include "kiln/Compat/IREE/FlowDialect.h.inc"
#include "kiln/Compat/IREE/UtilDialect.h.inc"

#define GET_OP_CLASSES
#include "kiln/Compat/IREE/IREEOps.h.inc"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Compat/IREE/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Compat/IREE/Passes.h.inc"

/// Adds the `check`, `util` and `flow` dialects to `registry`.
void registerIREECompatDialects(mlir::DialectRegistry &registry);

/// Registers the `iree` input conversion, chosen automatically for programs
/// that use those dialects. Idempotent.
void registerIREECompatInputConversion();

/// The namespaces of the dialects above.
llvm::ArrayRef<llvm::StringRef> getIREECompatDialectNames();

} // namespace kiln

#endif // KILN_COMPAT_IREE_IREECOMPAT_H
