//===- TileConvolution.cpp - Direct convolution in vector registers -------===//
//
// The inner tiling of the cpu-convolution pipeline. A register tile of a
// 2-D convolution covers one output row: a strip of output width times a
// few vectors of output channels (or of channels, for depthwise
// convolutions and pooling), one filter row. Such a tile is a 1-D
// convolution; vectorized, it is a small matrix product that broadcasts
// input elements against vectors of filter values, its accumulators held
// in registers across the filter window and the input channels.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/ViewLikeInterfaceUtils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace kiln;

/// Rewrites the 2-D convolutions and poolings of `func` whose window has
/// one row (or one column) into 1-D ones, which the vectorizer handles.
static LogicalResult decomposeToOneDimension(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  linalg::populateDecomposeConvolutionPatterns(patterns);
  return applyPatternsGreedily(func, std::move(patterns));
}

namespace {
/// A slice of what an `scf.if` yields is the `scf.if` yielding slices:
///
///   %t = scf.if %c { ... yield %a } else { ... yield %b }
///   %s = tensor.extract_slice %t[...]
/// ->
///   %s = scf.if %c { ... yield slice of %a } else { ... yield slice of %b }
///
/// The branches are cloned to where the slice is taken (versionOverIf).
/// Tiling fuses a padding into a workgroup as such an `scf.if` (its guard
/// against a tile entirely in the padding); moving a tile's slice into it
/// lets the slice reach the `tensor.pad` in a branch.
struct SinkExtractSliceIntoIf
    : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto ifOp = slice.getSource().getDefiningOp<scf::IfOp>();
    if (!ifOp || ifOp->getNumResults() != 1 || !ifOp.elseBlock())
      return failure();
    // Cloning runs the branches' ops once more: only pure ones.
    for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
      for (Operation &op : block->without_terminator())
        if (!isPure(&op))
          return failure();
    versionOverIf(rewriter, ifOp, slice);
    return success();
  }
};
} // namespace

/// Whether `value` is written into: the tensor a loop carries, an op
/// writes into, or a vector or a slice is put in.
static bool isWrittenInto(Value value) {
  return llvm::any_of(value.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto loop = dyn_cast<scf::ForOp>(user))
      return llvm::is_contained(loop.getInitArgsMutable(), use);
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
      return dps.isDpsInit(&use);
    if (auto write = dyn_cast<vector::TransferWriteOp>(user))
      return use.get() == write.getBase();
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(user))
      return use.get() == insert.getDest();
    return false;
  });
}

namespace {
/// A slice of a slice of what a tile reads is one slice: a strip's window
/// becomes a slice of the padded image, which then swaps with the pad.
/// Slices that are written into stay nested: merged, a register tile's
/// channels would be a slice of the dispatch's result taken beside the
/// slice of the workgroup's row it belongs to, and bufferization would
/// copy the row into a buffer of its own to keep them apart (a depthwise
/// convolution of 40 channels, peeled as 32 and 8, over a dynamic width:
/// a malloc per row).
struct MergeSlicesOfReads : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto producer = slice.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    if (!producer || isWrittenInto(slice.getResult()))
      return failure();
    SmallVector<OpFoldResult> offsets, sizes, strides;
    if (failed(affine::mergeOffsetsSizesAndStrides(
            rewriter, slice.getLoc(), producer, slice,
            producer.getDroppedDims(), offsets, sizes, strides)))
      return failure();
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        slice, slice.getType(), producer.getSource(), offsets, sizes, strides);
    return success();
  }
};
} // namespace

/// Moves each `tensor.pad` that a tile reads a slice of under the slice:
/// the tile then pads only its own part of the image (when it touches a
/// border at all) instead of the whole workgroup's part.
static LogicalResult swapPaddingIntoTiles(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  RewritePatternSet patterns(context);
  patterns.add<SinkExtractSliceIntoIf>(context);
  // The guard keeps a tile that lies entirely in the padding correct (a
  // tensor.generate, a fill once materialized).
  patterns.add<linalg::ExtractSliceOfPadTensorSwapPattern>(
      context, [](tensor::ExtractSliceOp) { return true; });
  linalg::populateSwapExtractSliceWithFillPatterns(patterns);
  patterns.add<MergeSlicesOfReads>(context);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// The tensor `value` is a slice of, through extract_slice ops.
static Value getSliceRoot(Value value) {
  while (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>())
    value = slice.getSource();
  return value;
}

/// The filter of a convolution: the input indexed by the output channel
/// loop `channel` in its innermost dim and by no output image loop.
static OpOperand *getFilterOperand(linalg::LinalgOp op,
                                   const linalg::ConvolutionDimensions &dims,
                                   unsigned channel) {
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() == 0)
      continue;
    auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (last && last.getPosition() == channel &&
        llvm::none_of(dims.outputImage,
                      [&](unsigned loop) { return map.isFunctionOfDim(loop); }))
      return input;
  }
  return nullptr;
}

/// Copies the filter of a workgroup's convolution into a contiguous panel
/// when the workgroup takes one register tile of output channels from a
/// filter whose rows lie kMinStridedFilterRowBytes or more apart, and
/// sweeps the panel with at least kMinFilterPanelStrips register strips:
/// the copy reads and writes each element once, in a pass of its own that
/// waits on memory, while the strips' reads overlap their arithmetic.
static void copyStridedFilterPanel(RewriterBase &rewriter, linalg::LinalgOp op,
                                   const linalg::ConvolutionDimensions &dims,
                                   ArrayRef<int64_t> registerTile) {
  if (dims.inputChannel.empty() || dims.outputImage.empty())
    return;
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto innermost = dyn_cast<AffineDimExpr>(outputMap.getResults().back());
  if (!innermost || innermost.getPosition() >= registerTile.size())
    return;
  unsigned channel = innermost.getPosition();
  OpOperand *filter = getFilterOperand(op, dims, channel);
  if (!filter)
    return;
  auto type = dyn_cast<RankedTensorType>(filter->get().getType());
  auto rootType =
      dyn_cast<RankedTensorType>(getSliceRoot(filter->get()).getType());
  if (!type || !rootType || !type.hasStaticShape() ||
      !type.getElementType().isIntOrFloat())
    return;
  int64_t panelWidth = type.getShape().back();
  int64_t rowElements = rootType.getShape().back();
  if (panelWidth != registerTile[channel] ||
      ShapedType::isDynamic(rowElements) || rowElements == panelWidth)
    return;
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  unsigned width = dims.outputImage.back();
  int64_t strips = 1;
  for (unsigned loop :
       llvm::concat<const unsigned>(dims.batch, dims.outputImage)) {
    if (ShapedType::isDynamic(loops[loop]))
      return;
    strips *= loop == width
                  ? llvm::divideCeil(loops[loop],
                                     std::max<int64_t>(1, registerTile[loop]))
                  : loops[loop];
  }
  int64_t bytes = std::max(8u, type.getElementTypeBitWidth()) / 8;
  if (!copiesFilterPanel(rowElements * bytes, strips))
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                        type.getElementType());
  Value panel =
      linalg::CopyOp::create(rewriter, loc, filter->get(), empty).getResult(0);
  rewriter.modifyOpInPlace(op, [&] { filter->set(panel); });
}

/// With a dynamic image width the last strip of a row is narrower than a
/// register tile by an amount known only at run time, and such a tile
/// runs scalar: it is split into strips of half the register tile's
/// width, a quarter, ..., 1 pixel, each whole one static (vectorized
/// along the channels) and the rest left to the next. A 3x3 convolution
/// of 16 > 32 channels and a depthwise 3x3 after it over a dynamic 320x327
/// image (rows ending in strips of 7 and 3 pixels): 25.7 -> 18.5 ms,
/// Emerald Rapids, one thread, 2026-11-28 (medians of three alternating
/// rounds).
static LogicalResult splitPartialStrips(RewriterBase &rewriter,
                                        func::FuncOp func, unsigned width,
                                        ArrayRef<int64_t> registerTile) {
  if (width >= registerTile.size() || registerTile[width] <= 1)
    return success();
  for (int64_t strip = llvm::PowerOf2Ceil(registerTile[width]) / 2; strip >= 1;
       strip /= 2) {
    // Clean-up folds the sizes of the whole strips that peeling left.
    if (failed(cleanUpTiling(func)))
      return failure();
    for (Operation *tile : findConfiguredOps(func)) {
      // The strip's width is its result's: the image it reads may have a
      // dynamic size where the strip is whole.
      auto op = dyn_cast<linalg::LinalgOp>(tile);
      if (!op || width >= op.getNumLoops() || op.getNumDpsInits() != 1)
        continue;
      OpOperand *init = op.getDpsInitOperand(0);
      std::optional<unsigned> position =
          op.getMatchingIndexingMap(init).getResultPosition(
              getAffineDimExpr(width, op.getContext()));
      if (!position ||
          !cast<ShapedType>(init->get().getType()).isDynamicDim(*position))
        continue;
      SmallVector<int64_t> sizes(op.getNumLoops(), 0);
      sizes[width] = strip;
      if (failed(tileWithEpilogue(rewriter, cast<TilingInterface>(tile), sizes,
                                  /*markRegisterTiles=*/true)))
        return tile->emitError()
               << "could not split its last strip into strips of " << strip;
    }
  }
  return success();
}

/// Vectors of a register tile lose the unit dims they lead with (a tile's
/// batch and row of one): the fill that starts the accumulators, the 1-D
/// convolution that carries them and the epilogue that finishes them then
/// see one vector shape, and the reads of what an earlier op wrote in the
/// same tile fold into the written vectors.
LogicalResult kiln::dropLeadingUnitDims(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
  if (failed(applyPatternsGreedily(func, std::move(patterns))))
    return failure();
  return cleanUpTiling(func);
}

LogicalResult kiln::tileAndVectorizeConvolution(RewriterBase &rewriter,
                                                func::FuncOp func,
                                                Operation *root,
                                                LoweringConfigAttr config) {
  // A workgroup of a grouped convolution takes one group, of a filter
  // packed in panels one panel: an ordinary convolution once that loop is
  // dropped. A register tile of several groups keeps the grouped generic
  // (MultiGroupConvolution.cpp).
  auto rootLinalg = dyn_cast<linalg::LinalgOp>(root);
  bool multiGroup =
      rootLinalg && getMultiGroupLoop(rootLinalg, config.getRegisterTile());
  if (!multiGroup) {
    FailureOr<std::pair<Operation *, LoweringConfigAttr>> ungrouped =
        dropConvolutionUnitLoop(rewriter, root, config);
    if (failed(ungrouped) || failed(cleanUpTiling(func)))
      return failure();
    std::tie(root, config) = *ungrouped;
  }
  auto tilingOp = dyn_cast<TilingInterface>(root);
  if (!tilingOp)
    return success();
  // Where the padding is made (padsPerRegisterStrip). A convolution
  // summing over input channels reads the same pixels for every tile of
  // output channels: its workgroup pads once, up front. Pooling and
  // depthwise convolutions read each pixel for one tile of channels only,
  // and are memory-bound: copying the workgroup's part of the image into a
  // padded tile cost as much as the op (every workgroup of a row meets a
  // border), and copying a strip's window four times what the strip
  // computes. There each register strip reads the image in place away
  // from the borders and its window row by row at them
  // (readPaddedWindows), even on narrow images (ResNet's 3x3 max pool
  // over 14x14x256, every strip at a border, batch 8: 0.256 ms with the
  // workgroup's part copied, 0.187 read by rows).
  bool padPerStrip = false;
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalgOp ? linalg::inferConvolutionDims(linalgOp)
               : FailureOr<linalg::ConvolutionDimensions>(failure());
  if (succeeded(dims) && !dims->outputImage.empty() &&
      dims->outputImage.back() < registerTile.size()) {
    unsigned width = dims->outputImage.back();
    padPerStrip =
        padsPerRegisterStrip(!dims->inputChannel.empty(), registerTile[width]);
    copyStridedFilterPanel(rewriter, linalgOp, *dims, registerTile);
  }
  // Both levels tile the parallel loops with the epilogue and the fill
  // (each register tile starts, accumulates and finishes in registers)
  // and peel their partial tiles: with static extents, a partial tile of
  // an odd width or channel count has a static shape too, and vectorizes
  // instead of running scalar. The reduction loops follow, inside.
  ArrayRef<int64_t> cacheTile = config.getCacheTile();
  auto tileReductions = [&](ArrayRef<int64_t> sizes) -> LogicalResult {
    for (Operation *tile : findConfiguredOps(func)) {
      auto tiling = cast<TilingInterface>(tile);
      if (failed(tileAndPeel(rewriter, tiling,
                             sizesOfKind(tiling, sizes, /*parallel=*/false))))
        return tile->emitError()
               << "could not be tiled by " << llvm::interleaved_array(sizes);
    }
    return cleanUpTiling(func);
  };
  if (failed(tileWithEpilogue(rewriter, tilingOp, cacheTile,
                              /*markRegisterTiles=*/false)))
    return root->emitError()
           << "could not be tiled by the cache tile " << cacheTile;
  if (!padPerStrip) {
    // A tile of one output row at the image's top or bottom border takes
    // only the filter rows that meet image rows, read off the tensor.pad
    // (skipPaddingRows); the workgroup then makes its padded tile once,
    // outside the cache tiles (tiling fused no producer of the image).
    skipPaddingRows(rewriter, func);
    materializePadding(rewriter, func, /*readRowsInPlace=*/false);
  }
  if (failed(cleanUpTiling(func)) || failed(tileReductions(cacheTile)))
    return failure();
  for (Operation *tile : findConfiguredOps(func))
    if (failed(tileWithEpilogue(rewriter, cast<TilingInterface>(tile),
                                registerTile, /*markRegisterTiles=*/true)))
      return tile->emitError()
             << "could not be tiled by the register tile " << registerTile;
  if (succeeded(dims) && !dims->outputImage.empty() &&
      failed(splitPartialStrips(rewriter, func, dims->outputImage.back(),
                                registerTile)))
    return failure();
  if (padPerStrip) {
    // Generates become fills first, which slices swap with.
    materializeGenerates(rewriter, func);
    // Clean-up folds the casts of swapped pads into static pad shapes.
    if (failed(cleanUpTiling(func)) || failed(swapPaddingIntoTiles(func)) ||
        failed(cleanUpTiling(func)))
      return failure();
    materializePadding(rewriter, func, /*readRowsInPlace=*/true);
  }
  if (failed(tileReductions(registerTile)))
    return failure();
  if (failed(cleanUpTiling(func)))
    return failure();
  if (multiGroup) {
    for (Operation *tile : findConfiguredOps(func))
      if (failed(vectorizeMultiGroupConvolution(rewriter,
                                                cast<linalg::LinalgOp>(tile))))
        return failure();
    vectorizeRegisterEpilogues(rewriter, func);
    return success();
  }
  if (failed(decomposeToOneDimension(func)))
    return failure();
  // The decomposed tiles are new ops without the config: every static
  // convolution left in the function is one.
  SmallVector<linalg::LinalgOp> tiles;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
        linalg::isaConvolutionOpInterface(op))
      tiles.push_back(op);
  });
  for (linalg::LinalgOp tile : tiles)
    vectorizeOp(rewriter, tile, {}, /*contraction=*/false);
  vectorizeRegisterEpilogues(rewriter, func);
  return success();
}
