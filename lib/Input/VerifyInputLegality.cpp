//===- VerifyInputLegality.cpp - Reject ops Kiln cannot compile -----------===//
//
// Ends the input phase: every op left must belong to a dialect that the
// later phases know how to compile, in a form they can compile.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Input/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_VERIFYINPUTLEGALITYPASS
#include "kiln/Input/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// The dialects whose ops the later phases compile.
static constexpr llvm::StringLiteral kLegalDialects[] = {
    "builtin", "func", "arith", "math", "linalg", "tensor", "scf", "ub"};

/// Checks what the dialects' verifiers accept but no phase can compile;
/// emits an error at `op` and returns failure.
static LogicalResult checkStructure(Operation *op, ModuleOp top) {
  // The host phase compiles the top module's functions; a nested module
  // would reach the LLVM translation unconverted.
  if (auto module = dyn_cast<ModuleOp>(op); module && module != top)
    return op->emitError()
           << "nested modules are not supported by Kiln: put the functions "
              "in the top module";
  // tensor.dim with a constant index outside the rank is undefined; the
  // verifier allows it, later phases would read out of bounds.
  if (auto dim = dyn_cast<tensor::DimOp>(op)) {
    std::optional<int64_t> index = dim.getConstantIndex();
    auto type = dyn_cast<RankedTensorType>(dim.getSource().getType());
    if (index && type && (*index < 0 || *index >= type.getRank()))
      return op->emitError()
             << "dimension index " << *index << " is out of range for " << type
             << " (rank " << type.getRank() << ")";
  }
  return success();
}

namespace {
struct VerifyInputLegalityPass
    : public kiln::impl::VerifyInputLegalityPassBase<VerifyInputLegalityPass> {
  void runOnOperation() override {
    bool legal = true;
    ModuleOp top = getOperation();
    top.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (failed(checkStructure(op, top))) {
        legal = false;
        return WalkResult::skip();
      }
      StringRef dialect = op->getName().getDialectNamespace();
      if (llvm::is_contained(kLegalDialects, dialect))
        return WalkResult::advance();
      // Kiln's own host ops, which input conversions may produce, and its
      // extension points: calls of runtime extensions, hand-written
      // dispatches (whose workgroup count region their verifier checks).
      if (isa<kiln::CheckOp, kiln::AssertOp, kiln::OptimizationBarrierOp,
              kiln::CallExternOp>(op))
        return WalkResult::advance();
      if (isa<kiln::ExternalDispatchOp>(op))
        return WalkResult::skip();
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
