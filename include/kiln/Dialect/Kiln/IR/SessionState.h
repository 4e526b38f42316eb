//===- SessionState.h - Per-compile state of a context ----------*- C++ -*-===//
//
// What a compile session owns and passes need (its target backends, input
// conversions, dispatch claims, plugins) is attached to the MLIRContext the
// session compiles in, not kept in process globals: a pass finds it through
// its context, and sessions in different contexts compile at once without
// seeing each other's. A type attached this way declares an explicit TypeID
// (MLIR_DECLARE_EXPLICIT_TYPE_ID), so that shared-object plugins agree on it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_SESSIONSTATE_H
#define KILN_DIALECT_KILN_IR_SESSIONSTATE_H

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/IR/MLIRContext.h"

namespace kiln {

/// The `T` that the session owning `context` attached, or null (no session,
/// or one without a `T`).
template <typename T> T *getSessionState(mlir::MLIRContext *context) {
  auto *dialect = context->getLoadedDialect<KilnDialect>();
  if (!dialect)
    return nullptr;
  return static_cast<T *>(dialect->getSessionState(mlir::TypeID::get<T>()));
}

/// Attaches `state` (owned by the caller, which outlives every use of
/// `context` for compiling) to `context`; null detaches. Loads the kiln
/// dialect. Not thread-safe: sessions attach before they compile.
template <typename T>
void attachSessionState(mlir::MLIRContext *context, T *state) {
  context->getOrLoadDialect<KilnDialect>()->setSessionState(
      mlir::TypeID::get<T>(), state);
}

} // namespace kiln

#endif // KILN_DIALECT_KILN_IR_SESSIONSTATE_H
