//===- VerifyInputLegality.cpp - Reject ops Kiln cannot compile -----------===//
//
// Ends the input phase: every op left must belong to a dialect that the
// later phases know how to compile.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Input/Passes.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_VERIFYINPUTLEGALITYPASS
#include "kiln/Input/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// The dialects whose ops the later phases compile.
static constexpr llvm::StringLiteral kLegalDialects[] = {
    "builtin", "func", "arith", "math", "linalg", "tensor", "scf", "ub"};

namespace {
struct VerifyInputLegalityPass
    : public kiln::impl::VerifyInputLegalityPassBase<VerifyInputLegalityPass> {
  void runOnOperation() override {
    bool legal = true;
    getOperation().walk([&](Operation *op) {
      StringRef dialect = op->getName().getDialectNamespace();
      if (llvm::is_contained(kLegalDialects, dialect))
        return WalkResult::advance();
      // Kiln's own host ops, which input conversions may produce.
      if (isa<kiln::CheckOp, kiln::OptimizationBarrierOp>(op))
        return WalkResult::advance();
      legal = false;
      InFlightDiagnostic diag = op->emitError()
                                << "'" << op->getName()
                                << "' is not supported by Kiln: no input "
                                   "conversion turns it into linalg on tensors";
      diag.attachNote() << "Kiln compiles func, arith, math, linalg, tensor "
                           "and scf ops (and tosa, which it converts); "
                           "rewrite the op with those, or activate a plugin "
                           "that converts the '"
                        << dialect << "' dialect";
      // Report each offending op once, not the ops nested in it.
      return WalkResult::skip();
    });
    if (!legal)
      signalPassFailure();
  }
};
} // namespace
