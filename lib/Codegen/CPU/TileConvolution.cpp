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
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace kiln;

/// Rewrites the 2-D convolutions and poolings of `func` whose window has
/// one row (or one column) into 1-D ones, which the vectorizer handles.
static LogicalResult decomposeToOneDimension(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  linalg::populateDecomposeConvolutionPatterns(patterns);
  return applyPatternsGreedily(func, std::move(patterns));
}

/// The value every element of `generate` is, when it is one value.
static Value getUniformValue(tensor::GenerateOp generate) {
  auto yield =
      cast<tensor::YieldOp>(generate.getBody().front().getTerminator());
  Value value = yield.getValue();
  if (generate.getBody().isAncestor(value.getParentRegion()))
    return {};
  return value;
}

/// The tile `pad` makes, built at the rewriter's insertion point: a copy
/// of the image's part, and fills of the frame around it with the padding
/// value, dim by dim: along dim d, the slabs before and after it, spanning
/// the image's part in the dims before d and the whole tile in those after
/// (a pad's elements are written once, the image's never twice).
static Value buildPaddedTile(RewriterBase &rewriter, tensor::PadOp pad,
                             Value padding, ArrayRef<OpFoldResult> shape) {
  Location loc = pad.getLoc();
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(shape))
    if (pad.getResultType().isDynamicDim(dim))
      dynamicSizes.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, size));
  Value tile =
      tensor::EmptyOp::create(rewriter, loc, pad.getResultType(), dynamicSizes);
  SmallVector<OpFoldResult> low = pad.getMixedLowPad();
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, pad.getSource());
  SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
  Value interior =
      tensor::ExtractSliceOp::create(rewriter, loc, tile, low, sizes, strides);
  Value copied =
      linalg::CopyOp::create(rewriter, loc, pad.getSource(), interior)
          .getResult(0);
  tile = tensor::InsertSliceOp::create(rewriter, loc, copied, tile, low, sizes,
                                       strides);
  SmallVector<OpFoldResult> high = pad.getMixedHighPad();
  AffineExpr a, b;
  bindSymbols(rewriter.getContext(), a, b);
  for (unsigned d = 0; d < sizes.size(); ++d) {
    for (bool before : {true, false}) {
      OpFoldResult width = before ? low[d] : high[d];
      if (isZeroInteger(width))
        continue;
      SmallVector<OpFoldResult> offsets, extents;
      for (unsigned j = 0; j < sizes.size(); ++j) {
        if (j < d) {
          offsets.push_back(low[j]);
          extents.push_back(sizes[j]);
        } else if (j > d) {
          offsets.push_back(rewriter.getIndexAttr(0));
          extents.push_back(shape[j]);
        } else {
          offsets.push_back(
              before ? rewriter.getIndexAttr(0)
                     : affine::makeComposedFoldedAffineApply(
                           rewriter, loc, a + b, {low[d], sizes[d]}));
          extents.push_back(width);
        }
      }
      Value slab = tensor::ExtractSliceOp::create(rewriter, loc, tile, offsets,
                                                  extents, strides);
      Value filled =
          linalg::FillOp::create(rewriter, loc, padding, slab).getResult(0);
      tile = tensor::InsertSliceOp::create(rewriter, loc, filled, tile, offsets,
                                           extents, strides);
    }
  }
  return tile;
}

/// True at run time when `pad` pads nothing (a workgroup's part of the
/// image away from its borders); null when it always pads.
static Value buildPadsNothing(RewriterBase &rewriter, tensor::PadOp pad) {
  Location loc = pad.getLoc();
  Value result;
  for (OpFoldResult width : llvm::concat<OpFoldResult>(pad.getMixedLowPad(),
                                                       pad.getMixedHighPad())) {
    std::optional<int64_t> constant = getConstantIntValue(width);
    if (constant && *constant != 0)
      return {};
    if (constant)
      continue;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value isZero = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, cast<Value>(width), zero);
    result =
        result
            ? arith::AndIOp::create(rewriter, loc, result, isZero).getResult()
            : isZero;
  }
  return result ? result : arith::ConstantIntOp::create(rewriter, loc, 1, 1);
}

/// Padding fused into a convolution's workgroup becomes a tile of the
/// padded image, written once per workgroup: a copy of the image's part,
/// and fills of the frame around it with the padding value. Both are linalg ops
/// and vectorize, where tensor.pad would bufferize into element-by-element
/// copies. A tile entirely in the padding (tiling guards for one) is a
/// fill.
static void materializePadding(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<tensor::PadOp> pads;
  SmallVector<tensor::GenerateOp> generates;
  func.walk([&](Operation *op) {
    if (auto pad = dyn_cast<tensor::PadOp>(op))
      pads.push_back(pad);
    else if (auto generate = dyn_cast<tensor::GenerateOp>(op))
      generates.push_back(generate);
  });
  auto fill = [&](Location loc, Value value, RankedTensorType type,
                  ValueRange dynamicSizes) {
    Value empty = tensor::EmptyOp::create(rewriter, loc, type, dynamicSizes);
    return linalg::FillOp::create(rewriter, loc, value, empty).getResult(0);
  };
  for (tensor::GenerateOp generate : generates) {
    Value value = getUniformValue(generate);
    if (!value)
      continue;
    rewriter.setInsertionPoint(generate);
    rewriter.replaceOp(generate,
                       fill(generate.getLoc(), value, generate.getType(),
                            generate.getDynamicExtents()));
  }
  for (tensor::PadOp pad : pads) {
    Value padding = pad.getConstantPaddingValue();
    if (!padding || pad.getNofold())
      continue;
    ReifiedRankedShapedTypeDims shapes;
    rewriter.setInsertionPoint(pad);
    if (failed(reifyResultShapes(rewriter, pad, shapes)))
      continue;
    // Workgroups away from the image's borders read the image in place;
    // only the others make a padded tile.
    Location loc = pad.getLoc();
    RankedTensorType type = pad.getResultType();
    Value padsNothing = buildPadsNothing(rewriter, pad);
    if (!padsNothing) {
      rewriter.replaceOp(
          pad, buildPaddedTile(rewriter, pad, padding, shapes.front()));
      continue;
    }
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, padsNothing,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value inPlace =
        tensor::CastOp::create(rewriter, loc, type, pad.getSource());
    scf::YieldOp::create(rewriter, loc, inPlace);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        rewriter, loc, buildPaddedTile(rewriter, pad, padding, shapes.front()));
    rewriter.replaceOp(pad, ifOp.getResults());
  }
}

LogicalResult kiln::tileAndVectorizeConvolution(RewriterBase &rewriter,
                                                func::FuncOp func,
                                                Operation *root,
                                                LoweringConfigAttr config) {
  auto tilingOp = dyn_cast<TilingInterface>(root);
  if (!tilingOp)
    return success();
  materializePadding(rewriter, func);
  // Both levels peel their partial tiles: with static extents, a partial
  // tile of an odd width or channel count has a static shape too, and
  // vectorizes instead of running scalar.
  if (failed(tileAndPeel(rewriter, tilingOp, config.getCacheTile())))
    return root->emitError()
           << "could not be tiled by the cache tile " << config.getCacheTile();
  if (failed(cleanUpTiling(func)))
    return failure();
  for (Operation *tile : findConfiguredOps(func))
    if (failed(tileAndPeel(rewriter, cast<TilingInterface>(tile),
                           config.getRegisterTile())))
      return tile->emitError() << "could not be tiled by the register tile "
                               << config.getRegisterTile();
  if (failed(cleanUpTiling(func)) || failed(decomposeToOneDimension(func)))
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
  return success();
}
