//===- IREECompat.h - Reading IREE's test programs --------------*- C++ -*-===//
//
// The IREE compatibility layer: the `check`, `util` and `flow` ops IREE's
// end-to-end tests use, and their conversion into Kiln's ops. The
// iree_compat plugin (on by default; `--kiln-plugin=-iree_compat` turns it
// off) registers the dialects and, when active, the input conversion.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_IREE_COMPAT_IREECOMPAT_H
#define KILN_PLUGINS_IREE_COMPAT_IREECOMPAT_H

#include "kiln/Input/Passes.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Pass/Pass.h"

#include "CheckDialect.h.inc"
#include "FlowDialect.h.inc"
#include "UtilDialect.h.inc"

#define GET_OP_CLASSES
#include "IREEOps.h.inc"

namespace kiln {

#define GEN_PASS_DECL
#include "Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

/// Adds the `check`, `util` and `flow` dialects to `registry`.
void registerIREECompatDialects(mlir::DialectRegistry &registry);

/// The `iree` input conversion, chosen automatically for programs that use
/// those dialects.
InputConversion getIREECompatInputConversion();

/// The namespaces of the dialects above.
llvm::ArrayRef<llvm::StringRef> getIREECompatDialectNames();

} // namespace kiln

#endif // KILN_PLUGINS_IREE_COMPAT_IREECOMPAT_H
