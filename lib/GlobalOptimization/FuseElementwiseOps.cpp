//===- FuseElementwiseOps.cpp - Fuse elementwise linalg ops ---------------===//
//
// Generalizes all-parallel named linalg ops, then fuses elementwise
// producers into their only consumers and folds constant elementwise ops;
// dynamic sizes read from results are read from their sources.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
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

/// Whether `producer` only moves or converts elements: its body yields an
/// input, or a cast of one (a transpose, a broadcast, a widening).
static bool onlyMovesElements(Operation *producer) {
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic)
    return false;
  return llvm::all_of(
      generic.getBody()->without_terminator(), [](Operation &op) {
        return isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp,
                   arith::ExtUIOp, arith::TruncIOp, arith::SIToFPOp,
                   arith::UIToFPOp, arith::BitcastOp>(op);
      });
}

/// Fuse an elementwise producer only into a consumer that is not a
/// convolution (grouped convolutions are generics since their conversion to
/// channels last): fused, a transpose would have the convolution read its
/// filter or image across the channels, and an activation would be
/// computed again for every tap of the window and every output channel.
/// Into other consumers with reduction loops (a matmul generalized by
/// reshape propagation) only producers that move or convert elements: an
/// activation (GELU's erf) fused into a matmul's operand would be computed
/// again for every output column.
static bool isFusableProducer(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!isSingleUseProducer(operand) ||
      (consumer && linalg::isaConvolutionOpInterface(consumer)))
    return false;
  if (consumer && consumer.getNumReductionLoops() > 0 &&
      consumer.isDpsInput(operand))
    return onlyMovesElements(operand->get().getDefiningOp());
  return true;
}

/// Move a reshape across its single user, except a collapse into a
/// consumer that would split one of the consumer's reduction loops: a
/// matmul whose weights were laid out in panels (its result collapsed back
/// to N columns) would otherwise make the next matmul reduce over panels
/// and columns in two loops, no longer the contraction codegen tiles.
static bool isFoldableReshape(OpOperand *operand) {
  if (!isSingleUseProducer(operand))
    return false;
  auto collapse = operand->get().getDefiningOp<tensor::CollapseShapeOp>();
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!collapse || !consumer)
    return true;
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  SmallVector<utils::IteratorType> iterators = consumer.getIteratorTypesArray();
  for (auto [position, group] :
       llvm::enumerate(collapse.getReassociationIndices())) {
    if (group.size() < 2)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(position));
    if (dim && iterators[dim.getPosition()] == utils::IteratorType::reduction)
      return false;
  }
  return true;
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
                                                      isFoldableReshape);
    linalg::populateConstantFoldLinalgOperations(patterns, constantFoldControl);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    // A dynamic size read from an op's result (an empty tensor shaped like
    // the previous op's result) is read from what the op's own sizes come
    // from instead: such a read is a use that would keep the op from
    // fusing into its only real consumer (a transpose into NHWC after an
    // activation kept in NCHW).
    memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
