//===- TilingUtils.cpp - Tiling steps the CPU pipelines share -------------===//
//
// Tiling by one level of a config, peeling, vectorizing a tile, and the
// clean-up in between.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace kiln;

namespace {
/// A vector written into a slice of a tensor that is then put back where
/// it came from is a write into the tensor itself:
///
///   %s = tensor.extract_slice %t[offsets] [sizes] [1, ...]
///   %w = vector.transfer_write %v, %s[indices]
///   %r = tensor.insert_slice %w into %t[offsets] [sizes] [1, ...]
/// ->
///   %r = vector.transfer_write %v, %t[offsets + indices]
///
/// Upstream's folder only takes writes that cover the whole slice with a
/// vector of the slice's rank; a register tile's accumulator is written
/// with its unit dims dropped. Once folded, its read and write in the
/// reduction loops are the same subset of the loop's tensor, which loop
/// hoisting moves out.
struct FoldTransferWriteIntoSourceSlice
    : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    if (!write || write.getMask() || !write->hasOneUse())
      return failure();
    auto extract = write.getBase().getDefiningOp<tensor::ExtractSliceOp>();
    if (!extract || extract.getSource() != insert.getDest() ||
        !insert.hasUnitStride() || !extract.hasUnitStride() ||
        extract.getSourceType().getRank() != extract.getType().getRank() ||
        insert.getSourceType().getRank() != insert.getDestType().getRank() ||
        !isSameAs(extract.getMixedOffsets(), insert.getMixedOffsets()) ||
        !isSameAs(extract.getMixedSizes(), insert.getMixedSizes()))
      return failure();
    SmallVector<Value> indices;
    Location loc = write.getLoc();
    for (auto [offset, index] :
         llvm::zip_equal(insert.getMixedOffsets(), write.getIndices())) {
      AffineExpr a, b;
      bindSymbols(rewriter.getContext(), a, b);
      OpFoldResult sum = affine::makeComposedFoldedAffineApply(
          rewriter, loc, a + b, {offset, index});
      indices.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, sum));
    }
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, write.getVector(), insert.getDest(), indices,
        write.getPermutationMapAttr(), write.getInBoundsAttr());
    return success();
  }

private:
  static bool isSameAs(ArrayRef<OpFoldResult> a, ArrayRef<OpFoldResult> b) {
    return a.size() == b.size() &&
           llvm::all_of(llvm::zip_equal(a, b), [](auto pair) {
             return isEqualConstantIntOrValue(std::get<0>(pair),
                                              std::get<1>(pair));
           });
  }
};

/// A slice inserted at offset zero with the sizes of the tensor it goes
/// into replaces all of it: the result is the slice.
///
///   %r = tensor.insert_slice %s into %t[0, 0] [%n, 8] [1, 1]
///       : tensor<?x8xf32> into tensor<?x8xf32>    (%n = dim 0 of %t)
/// ->
///   %s
///
/// Upstream folds it only where the sizes are static. Over a dynamic
/// width, a workgroup's row of a convolution is put back whole into the
/// row it was taken from; left in place, bufferization reads that row
/// after the loop that wrote it, and copies it into a buffer allocated for
/// every workgroup (PP-OCR's direction classifier: a malloc, two copies
/// and a free per row of every convolution).
///
/// Only where the slice is an update of that tensor (written into it, by
/// loops that carry it): bufferization then keeps every loop on the one
/// buffer.
struct FoldWholeInsertSlice : public OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    RankedTensorType destType = insert.getDestType();
    if (insert.getSourceType() != destType || !insert.hasUnitStride() ||
        !llvm::all_of(insert.getMixedOffsets(), isZeroInteger) ||
        !isUpdateOf(insert.getSource(), insert.getDest()))
      return failure();
    for (auto [dim, size] : llvm::enumerate(insert.getMixedSizes())) {
      if (!destType.isDynamicDim(dim))
        continue; // The types match: the static sizes do.
      FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(
          size, {insert.getDest(), static_cast<int64_t>(dim)});
      if (failed(equal) || !*equal)
        return failure();
    }
    rewriter.replaceOp(insert, insert.getSource());
    return success();
  }

private:
  /// Whether `value` is `tensor` written into: through the tensors that
  /// loops carry, that ops write into their destination, and that vector
  /// writes and slice insertions write into.
  static bool isUpdateOf(Value value, Value tensor) {
    while (value != tensor && !isSameSlice(value, tensor)) {
      auto result = dyn_cast<OpResult>(value);
      if (!result)
        return false;
      Operation *op = result.getOwner();
      if (auto loop = dyn_cast<scf::ForOp>(op))
        value = loop.getInitArgs()[result.getResultNumber()];
      else if (auto write = dyn_cast<vector::TransferWriteOp>(op))
        value = write.getBase();
      else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
        value = insert.getDest();
      else if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
        value = dps.getTiedOpOperand(result)->get();
      else
        return false;
    }
    return true;
  }

  /// Whether `a` and `b` are the same slice of one tensor, taken twice
  /// (tiling takes a destination's slice once per use; CSE comes later).
  static bool isSameSlice(Value a, Value b) {
    auto first = a.getDefiningOp<tensor::ExtractSliceOp>();
    auto second = b.getDefiningOp<tensor::ExtractSliceOp>();
    return first && second &&
           OperationEquivalence::isEquivalentTo(
               first, second, OperationEquivalence::IgnoreLocations);
  }
};
} // namespace

/// Folds what tiling leaves behind: constant tile sizes become static
/// shapes, slices of empty tensors empty tensors, and slices feeding vector
/// transfers fold into them.
LogicalResult kiln::cleanUpTiling(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  patterns.add<FoldTransferWriteIntoSourceSlice, FoldWholeInsertSlice>(context);
  linalg::populateLinalgTilingCanonicalizationPatterns(patterns);
  scf::populateSCFForLoopCanonicalizationPatterns(patterns);
  tensor::populateFoldTensorEmptyPatterns(patterns);
  tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName name : context->getRegisteredOperations())
    if (isa<linalg::LinalgDialect, tensor::TensorDialect, vector::VectorDialect,
            scf::SCFDialect, affine::AffineDialect, arith::ArithDialect>(
            name.getDialect()))
      name.getCanonicalizationPatterns(patterns, context);
  return applyPatternsGreedily(root, std::move(patterns));
}

/// Tiles `op` by `sizes` with scf.for loops and replaces it; the loops and
/// tiled op are in the result.
static FailureOr<scf::SCFTilingResult> tileAndReplace(RewriterBase &rewriter,
                                                      TilingInterface op,
                                                      ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (succeeded(result))
    rewriter.replaceOp(op, result->replacements);
  return result;
}

/// Tiles `op` by `sizes` (0: not tiled) with scf.for loops, replacing it.
/// Returns the tiled op.
FailureOr<Operation *> kiln::tileOp(RewriterBase &rewriter, TilingInterface op,
                                    ArrayRef<int64_t> sizes) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op.getOperation();
  FailureOr<scf::SCFTilingResult> result = tileAndReplace(rewriter, op, sizes);
  if (failed(result))
    return failure();
  return result->tiledOps.front();
}

/// Vectorizes `op`, masking it to `vectorSizes` when its shape is not
/// static. Leaves ops the vectorizer does not support alone.
void kiln::vectorizeOp(RewriterBase &rewriter, Operation *op,
                       ArrayRef<int64_t> vectorSizes, bool contraction) {
  // Buffers of sub-byte elements (i1, i4, f4E2M1FN, ...) hold one element
  // per byte, but LLVM packs vectors of them into bits: such ops stay
  // scalar.
  auto isSubByte = [](Type type) {
    Type element = getElementTypeOrSelf(type);
    return element.isIntOrFloat() && element.getIntOrFloatBitWidth() < 8;
  };
  if (llvm::any_of(op->getOperandTypes(), isSubByte) ||
      llvm::any_of(op->getResultTypes(), isSubByte))
    return;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  bool isStatic = linalgOp ? !linalgOp.hasDynamicShape()
                           : llvm::all_of(op->getResultTypes(), [](Type t) {
                               auto shaped = dyn_cast<ShapedType>(t);
                               return shaped && shaped.hasStaticShape();
                             });
  SmallVector<int64_t> sizes;
  if (!isStatic) {
    if (vectorSizes.empty())
      return;
    sizes.assign(vectorSizes.begin(), vectorSizes.end());
  }
  // One flag per vector size: none of them is scalable.
  SmallVector<bool> scalable(sizes.size(), false);
  if (failed(linalg::vectorizeOpPrecondition(op, sizes, scalable,
                                             /*vectorizeNDExtract=*/true)))
    return;
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
      rewriter, op, sizes, scalable, /*vectorizeNDExtract=*/true,
      /*flatten1DDepthwiseConv=*/false,
      /*assumeDynamicDimsMatchVecSizes=*/false,
      /*createNamedContraction=*/contraction);
  if (failed(result))
    return;
  rewriter.replaceOp(op, result->replacements);
}

SmallVector<int64_t> kiln::sizesOfKind(TilingInterface op,
                                       ArrayRef<int64_t> sizes, bool parallel) {
  SmallVector<int64_t> result(sizes);
  for (auto [size, type] : llvm::zip_first(result, op.getLoopIteratorTypes()))
    if ((type == utils::IteratorType::parallel) != parallel)
      size = 0;
  return result;
}

Operation *kiln::findConfiguredOp(Operation *scope) {
  Operation *found = nullptr;
  scope->walk([&](TilingInterface op) {
    if (op->hasAttr(KilnDialect::getLoweringConfigAttrName()))
      found = op;
  });
  return found;
}

SmallVector<Operation *> kiln::findConfiguredOps(Operation *scope) {
  SmallVector<Operation *> ops;
  scope->walk([&](TilingInterface op) {
    if (op->hasAttr(KilnDialect::getLoweringConfigAttrName()))
      ops.push_back(op);
  });
  return ops;
}

/// Splits the partial tile in `partial` (fewer than `size` along `dim`, a
/// number known only at run time) into tiles of size/2, size/4, ..., 1
/// along `dim`, each peeled. The first of them keeps a run-time size
/// (masked): peeling does not simplify the bound it inherits from the
/// outer peel; the later ones are static.
static LogicalResult splitPartialRows(RewriterBase &rewriter,
                                      scf::ForOp partial, unsigned dim,
                                      int64_t size) {
  for (int64_t tile = llvm::PowerOf2Ceil(size) / 2; tile >= 1 && partial;
       tile /= 2) {
    auto op = dyn_cast_or_null<TilingInterface>(findConfiguredOp(partial));
    if (!op)
      return success();
    // A partial tile of static size vectorizes without masks as it is.
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation()))
      if (!ShapedType::isDynamic(linalgOp.getStaticLoopRanges()[dim]))
        return success();
    SmallVector<int64_t> sizes(op.getLoopIteratorTypes().size(), 0);
    sizes[dim] = tile;
    FailureOr<scf::SCFTilingResult> tiled = tileAndReplace(rewriter, op, sizes);
    if (failed(tiled))
      return failure();
    auto loop = dyn_cast<scf::ForOp>(tiled->loops.front().getOperation());
    partial = {};
    if (loop && tile > 1)
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
  }
  return success();
}

/// Tiles `op` by `sizes` and peels the partial last tile of each tiled
/// parallel loop; partial tiles along `rowDims` are split further. Adds
/// the outermost loops it makes (all the tiles are in them) to `scopes`,
/// when given.
static LogicalResult tileAndPeelLoops(RewriterBase &rewriter,
                                      TilingInterface op,
                                      ArrayRef<int64_t> sizes,
                                      ArrayRef<unsigned> rowDims,
                                      SmallVectorImpl<Operation *> *scopes) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return success();
  FailureOr<scf::SCFTilingResult> tiled = tileAndReplace(rewriter, op, sizes);
  if (failed(tiled))
    return failure();
  Operation *outermost =
      tiled->loops.empty() ? nullptr : tiled->loops.front().getOperation();
  // Without loops (nothing tiled), the tiled op is its own scope.
  if (scopes)
    scopes->push_back(outermost ? outermost : tiled->tiledOps.front());
  auto iterators =
      cast<TilingInterface>(tiled->tiledOps.front()).getLoopIteratorTypes();
  SmallVector<std::pair<scf::ForOp, unsigned>> parallelLoops;
  unsigned loopIndex = 0;
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    if (size == 0)
      continue;
    auto loop = dyn_cast<scf::ForOp>(tiled->loops[loopIndex++].getOperation());
    if (loop && iterators[dim] == utils::IteratorType::parallel)
      parallelLoops.push_back({loop, dim});
  }
  for (auto [loop, dim] : parallelLoops) {
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
    if (scopes && partial && loop.getOperation() == outermost)
      scopes->push_back(partial);
    if (partial && sizes[dim] > 1 && llvm::is_contained(rowDims, dim) &&
        failed(splitPartialRows(rewriter, partial, dim, sizes[dim])))
      return failure();
  }
  return success();
}

LogicalResult kiln::tileAndPeel(RewriterBase &rewriter, TilingInterface op,
                                ArrayRef<int64_t> sizes,
                                ArrayRef<unsigned> rowDims) {
  SmallVector<int64_t> rowSizes(sizes.size(), 0), otherSizes(sizes);
  for (unsigned dim : rowDims) {
    if (dim >= sizes.size() || sizes[dim] <= 1)
      continue;
    rowSizes[dim] = sizes[dim];
    otherSizes[dim] = 0;
  }
  if (llvm::all_of(rowSizes, [](int64_t s) { return s == 0; }))
    return tileAndPeelLoops(rewriter, op, sizes, {}, nullptr);
  // Rows first, so that each row tile (full, or one of the pieces of the
  // partial one) holds its own loops over the other dims, with the
  // accumulators of its rows kept in registers across them. Only the
  // tiles of `op` are tiled further: other configured ops of the function
  // (the other part of a split contraction) have tiles of their own.
  SmallVector<Operation *> scopes;
  if (failed(tileAndPeelLoops(rewriter, op, rowSizes, rowDims, &scopes)))
    return failure();
  SmallVector<Operation *> tiles;
  for (Operation *scope : scopes)
    llvm::append_range(tiles, findConfiguredOps(scope));
  for (Operation *tile : tiles)
    if (failed(tileAndPeelLoops(rewriter, cast<TilingInterface>(tile),
                                otherSizes, {}, nullptr)))
      return failure();
  return success();
}
