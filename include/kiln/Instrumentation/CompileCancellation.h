//===- CompileCancellation.h - Stopping a compile early ---------*- C++ -*-===//
//
// A caller that wants a compile to stop (Python's Ctrl-C, an embedding
// application) sets a flag it owns; the compile, which finds the flag as
// session state of its context, stops at the next phase or executable
// with an error instead of running to its end.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_INSTRUMENTATION_COMPILECANCELLATION_H
#define KILN_INSTRUMENTATION_COMPILECANCELLATION_H

#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "mlir/Support/TypeID.h"

#include <atomic>

namespace kiln {

/// The flag a compile's caller may set to stop it.
struct CompileCancellation {
  std::atomic<bool> *requested = nullptr;
};

/// Whether the caller of the compile in `context` asked it to stop.
inline bool isCompileCancelled(mlir::MLIRContext *context) {
  auto *cancellation = getSessionState<CompileCancellation>(context);
  return cancellation && cancellation->requested &&
         cancellation->requested->load(std::memory_order_relaxed);
}

} // namespace kiln

MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::CompileCancellation)

#endif // KILN_INSTRUMENTATION_COMPILECANCELLATION_H
