//===- FuseElementwiseOps.cpp - Fuse elementwise linalg ops ---------------===//
//
// Generalizes all-parallel named linalg ops, then fuses elementwise
// producers into their only consumers and folds constant elementwise ops.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_FUSEELEMENTWISEOPSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// Named ops that are generics in disguise: all loops parallel. Fills stay
/// named because dispatch formation clones them into their consumers.
static bool isParallelNamedOp(linalg::LinalgOp op) {
  return !isa<linalg::GenericOp, linalg::FillOp>(op) &&
         op.getNumLoops() == op.getNumParallelLoops();
}

/// Fuse (or move a reshape across) a producer only into its single user, so
/// no work is duplicated.
static bool isSingleUseProducer(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

/// Fuse an elementwise producer only into a consumer that is not a
/// convolution (grouped convolutions are generics since their conversion to
/// channels last): fused, a transpose would have the convolution read its
/// filter or image across the channels, and an activation would be
/// computed again for every tap of the window and every output channel.
static bool isFusableProducer(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return isSingleUseProducer(operand) &&
         !(consumer && linalg::isaConvolutionOpInterface(consumer));
}

namespace {
struct FuseElementwiseOpsPass
    : public kiln::impl::FuseElementwiseOpsPassBase<FuseElementwiseOpsPass> {
  using FuseElementwiseOpsPassBase::FuseElementwiseOpsPassBase;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();

    SmallVector<linalg::LinalgOp> named;
    root->walk([&](linalg::LinalgOp op) {
      if (isParallelNamedOp(op))
        named.push_back(op);
    });
    IRRewriter rewriter(context);
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op)))
        op.emitWarning() << "could not be generalized for fusion";
    }

    int64_t limit = maxConstantElements;
    auto constantFoldControl = [limit](OpOperand *operand) {
      auto type = dyn_cast<ShapedType>(operand->get().getType());
      return type && type.hasStaticShape() && type.getNumElements() <= limit;
    };

    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, isFusableProducer);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      isSingleUseProducer);
    linalg::populateConstantFoldLinalgOperations(patterns, constantFoldControl);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
