//===- PropagateTransposes.cpp - Transposes moved past elementwise ops ----===//
//
// ConvertConvolutionsToChannelsLast puts each channels-last convolution
// between transposes (the image to NHWC, the result back to NCHW), and
// activations stay NHWC between convolutions where a transpose back to
// NCHW meets the next transpose to NHWC. Elementwise fusion makes them
// meet through a chain of elementwise ops, one consumer at a time: an
// activation whose result has two users (a squeeze-and-excitation block's
// global pooling and its scaling, in MobileNetV3 and PP-OCR) fuses with
// neither, and stays NCHW. Every op after it then reads or writes across
// the channels: PP-OCR's direction classifier spent half its time in such
// scalings at 1-2 GB/s.
//
// This pass sinks a transpose below each elementwise op it feeds, the op
// then computed in the transpose's source layout, until it meets the
// inverse transpose and cancels, or an op that is no elementwise one; a
// transpose that ends with several users is copied for each of the linalg
// ops among them (a copy only indexes), which fusion then merges into
// each, so that a pooling reads the channels-last image in place.
//
//===----------------------------------------------------------------------===//

#include "TransposeConstant.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_PROPAGATETRANSPOSESPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// A transpose of a transpose is one transpose, or none:
///
///   %t = linalg.transpose ins(%x) permutation = [0, 2, 3, 1]
///   %u = linalg.transpose ins(%t) permutation = [0, 3, 1, 2]
/// ->
///   %x
struct ComposeTransposes : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<linalg::TransposeOp>();
    if (!inner || !op.hasPureTensorSemantics() ||
        !inner.hasPureTensorSemantics())
      return failure();
    ArrayRef<int64_t> first = inner.getPermutation();
    // Result dim j is the intermediate's dim outer[j], the source's dim
    // first[outer[j]].
    SmallVector<int64_t> composed = llvm::map_to_vector(
        op.getPermutation(), [&](int64_t p) { return first[p]; });
    Value result = isIdentityPermutation(composed)
                       ? inner.getInput()
                       : kiln::createTranspose(rewriter, op.getLoc(),
                                               inner.getInput(), composed);
    // Either side of a transpose may know a size the other leaves dynamic.
    Type type = op->getResult(0).getType();
    if (result.getType() != type)
      result = tensor::CastOp::create(rewriter, op.getLoc(), type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The reassociation that collapses `type` to its dims other than those
/// of static size 1, each unit dim grouped with the next other dim (the
/// last ones with the last); none when every dim has size 1.
static std::optional<SmallVector<ReassociationIndices>>
getUnitDimGroups(RankedTensorType type) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices group;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    group.push_back(d);
    if (type.getDimSize(d) != 1) {
      groups.push_back(group);
      group.clear();
    }
  }
  if (groups.empty())
    return std::nullopt;
  groups.back().append(group.begin(), group.end());
  return groups;
}

/// A transpose that moves only dims of size 1 of an expanded tensor is
/// one more reshape: the global average pooling of a squeeze-and-excitation
/// block yields N x C, expanded to N x C x 1 x 1 and transposed to
/// N x 1 x 1 x C for the convolution after it. (A transpose of another
/// op's result stays one, for fusion to merge into the ops reading it.)
///
///   %x = tensor.expand_shape %p [[0], [1, 2, 3]]
///       : tensor<1x8xf32> into tensor<1x8x1x1xf32>
///   %t = linalg.transpose ins(%x) outs(...) permutation = [0, 2, 3, 1]
/// ->
///   %c = tensor.collapse_shape %x [[0, 1, 2, 3]]
///       : tensor<1x8x1x1xf32> into tensor<8xf32>
///   %t = tensor.expand_shape %c [[0, 1, 2, 3]]
///       : tensor<8xf32> into tensor<1x1x1x8xf32>
///
/// which canonicalization makes one expand_shape of %p.
struct TransposeOfUnitDimsToReshape
    : public OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = dyn_cast<RankedTensorType>(op.getInput().getType());
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!op.hasPureTensorSemantics() || !inputType || !resultType ||
        !op.getInput().getDefiningOp<tensor::ExpandShapeOp>())
      return failure();
    // The other dims keep their order.
    int64_t last = -1;
    for (int64_t p : op.getPermutation()) {
      if (inputType.getDimSize(p) == 1)
        continue;
      if (p < last)
        return failure();
      last = p;
    }
    std::optional<SmallVector<ReassociationIndices>> collapse =
        getUnitDimGroups(inputType);
    std::optional<SmallVector<ReassociationIndices>> expand =
        getUnitDimGroups(resultType);
    if (!collapse || !expand)
      return failure();
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, op.getInput());
    SmallVector<OpFoldResult> permuted = llvm::map_to_vector(
        op.getPermutation(), [&](int64_t p) { return sizes[p]; });
    Value collapsed = tensor::CollapseShapeOp::create(rewriter, loc,
                                                      op.getInput(), *collapse);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, resultType, collapsed, *expand, permuted);
    return success();
  }
};

/// An elementwise op reading a transposed tensor in the order it iterates
/// is computed in the transpose's source layout, its results transposed:
///
///   %t = linalg.transpose ins(%x : tensor<1x2x3x8xf32>) outs(...)
///       permutation = [0, 3, 1, 2]
///   %r = linalg.generic {maps = [(n, c, h, w) -> (n, c, h, w),
///                                (n, c, h, w) -> (c), (id)]}
///       ins(%t, %bias) outs(%e : tensor<1x8x2x3xf32>) { ... }
/// ->
///   %r2 = linalg.generic {maps = [(n, h, w, c) -> (n, h, w, c),
///                                 (n, h, w, c) -> (c), (id)]}
///       ins(%x, %bias) outs(%e2 : tensor<1x2x3x8xf32>) { ... }
///   %r = linalg.transpose ins(%r2) permutation = [0, 3, 1, 2]
///
/// Every operand that spans all the loops must be such a transpose, with
/// the same permutation: an operand in the op's own layout would be read
/// across its rows instead. Operands of fewer dims (a bias, a per-channel
/// scale) are read through the permuted loops.
struct SinkTransposeBelowElementwise
    : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    unsigned rank = op.getNumLoops();
    if (rank < 2 || op.getNumParallelLoops() != rank ||
        !op.hasPureTensorSemantics() || op.hasIndexSemantics())
      return failure();
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!op.getMatchingIndexingMap(&init).isIdentity() ||
          op.payloadUsesValueFromOperand(&init))
        return failure();
    std::optional<SmallVector<int64_t>> perm;
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      bool spansAll = map.getNumResults() == rank && map.isPermutation();
      auto transpose = input->get().getDefiningOp<linalg::TransposeOp>();
      if (!spansAll) {
        // Scalars and broadcasts: read in whatever order the loops go.
        inputs.push_back(input->get());
        maps.push_back(map);
        continue;
      }
      if (!type || !map.isIdentity() || !transpose ||
          !transpose.hasPureTensorSemantics() ||
          (perm && *perm != transpose.getPermutation()))
        return failure();
      perm = llvm::to_vector(transpose.getPermutation());
      inputs.push_back(transpose.getInput());
      maps.push_back({});
    }
    if (!perm || isIdentityPermutation(*perm))
      return failure();
    // The new loops are the source's dims: old loop j is new loop
    // perm[j].
    MLIRContext *context = op.getContext();
    AffineMap oldLoops = AffineMap::getPermutationMap(*perm, context);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, context);
    for (AffineMap &map : maps)
      map = map ? map.compose(oldLoops) : identity;
    Location loc = op.getLoc();
    SmallVector<int64_t> inverse = invertPermutationVector(*perm);
    SmallVector<Value> inits;
    for (Value init : op.getDpsInits()) {
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, init);
      SmallVector<OpFoldResult> permuted =
          llvm::map_to_vector(inverse, [&](int64_t p) { return sizes[p]; });
      inits.push_back(tensor::EmptyOp::create(rewriter, loc, permuted,
                                              getElementTypeOrSelf(init)));
      maps.push_back(identity);
    }
    auto sunk = linalg::GenericOp::create(
        rewriter, loc, ValueRange(inits).getTypes(), inputs, inits, maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), sunk.getRegion(),
                                sunk.getRegion().end());
    SmallVector<Value> results =
        llvm::map_to_vector(sunk.getResults(), [&](Value result) -> Value {
          return kiln::createTranspose(rewriter, loc, result, *perm);
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

/// Gives each linalg op among the users of a transpose with several its
/// own copy (not convolutions, which fusion keeps from reading across the
/// channels): a single-use transpose fuses into its user.
static void copyTransposesPerUser(RewriterBase &rewriter, Operation *root) {
  SmallVector<linalg::TransposeOp> transposes;
  root->walk([&](linalg::TransposeOp op) {
    if (op.hasPureTensorSemantics() && !op->hasOneUse())
      transposes.push_back(op);
  });
  for (linalg::TransposeOp op : transposes) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses()) {
      // Fusion merges into generics, and into the named ops it turns into
      // generics (those with parallel loops only).
      auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
      if (user && !isa<linalg::TransposeOp, linalg::FillOp>(user) &&
          (isa<linalg::GenericOp>(user) ||
           user.getNumLoops() == user.getNumParallelLoops()) &&
          !linalg::isaConvolutionOpInterface(user))
        uses.push_back(&use);
    }
    bool keep = uses.size() < llvm::range_size(op->getResult(0).getUses());
    for (OpOperand *use : llvm::drop_begin(uses, keep ? 0 : 1)) {
      rewriter.setInsertionPoint(op);
      Operation *copy = rewriter.clone(*op);
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(copy->getResult(0)); });
    }
  }
}

namespace {
struct PropagateTransposesPass
    : public kiln::impl::PropagateTransposesPassBase<PropagateTransposesPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<ComposeTransposes, SinkTransposeBelowElementwise,
                 TransposeOfUnitDimsToReshape>(context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
    IRRewriter rewriter(context);
    copyTransposesPerUser(rewriter, root);
  }
};
} // namespace
