//===- FoldZeroTripLinalgOps.cpp - Fold linalg ops that never iterate -----===//
//
// A linalg op whose iteration space is empty leaves its outs operands as
// they are; this pass says so in the IR, before anything tiles it.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_FOLDZEROTRIPLINALGOPSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// True when some loop of `op` has a static range of 0.
static bool hasZeroTripLoop(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

namespace {
struct FoldZeroTripLinalgOpsPass
    : public kiln::impl::FoldZeroTripLinalgOpsPassBase<
          FoldZeroTripLinalgOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> folded;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && hasZeroTripLoop(op))
        folded.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : folded) {
      SmallVector<Value> inits = llvm::map_to_vector(
          op.getDpsInitsMutable(), [](OpOperand &init) { return init.get(); });
      rewriter.replaceOp(op, inits);
    }
  }
};
} // namespace
