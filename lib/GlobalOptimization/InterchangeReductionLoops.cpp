//===- InterchangeReductionLoops.cpp - Loops in the order memory is read --===//
//
// A reduction that fusion merged with a transpose reads its input in an
// order other than its loops': a global average pooling over a
// channels-last image, its channel loop outer and the reduced height and
// width inner, walks the image across the channels. Codegen vectorizes the
// innermost loop, so such a pooling read one element per cache line (its
// vector's lanes 200 channels apart in PP-OCR's direction classifier).
// This pass reorders the loops of a reduction that reads one operand
// spanning all its loops so that it reads that operand in memory order:
// the pooling then sums whole rows of channels, vectors of channels in
// registers while it walks down the image (the heuristic's reduction
// across rows).
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_INTERCHANGEREDUCTIONLOOPSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// The loop order in which `op` reads its input in memory order: the
/// dims its map yields, when `op` is a reduction (not a contraction or a
/// convolution, whose codegen picks its own order) with one input, and
/// that input spans all the loops in another order. Empty otherwise.
static SmallVector<unsigned> getMemoryOrder(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInputs() != 1 ||
      !op.hasPureTensorSemantics() || linalg::isaContractionOpInterface(op) ||
      linalg::isaConvolutionOpInterface(op))
    return {};
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  if (!map.isPermutation() || map.isIdentity())
    return {};
  return llvm::map_to_vector(map.getResults(), [](AffineExpr result) {
    return cast<AffineDimExpr>(result).getPosition();
  });
}

namespace {
struct InterchangeReductionLoopsPass
    : public kiln::impl::InterchangeReductionLoopsPassBase<
          InterchangeReductionLoopsPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (!getMemoryOrder(op).empty())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : ops) {
      rewriter.setInsertionPoint(op);
      if (failed(
              linalg::interchangeGenericOp(rewriter, op, getMemoryOrder(op))))
        return signalPassFailure();
    }
  }
};
} // namespace
