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
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
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

LogicalResult kiln::tileAndVectorizeConvolution(RewriterBase &rewriter,
                                                func::FuncOp func,
                                                Operation *root,
                                                LoweringConfigAttr config) {
  auto tilingOp = dyn_cast<TilingInterface>(root);
  if (!tilingOp)
    return success();
  if (failed(tileOp(rewriter, tilingOp, config.getCacheTile())))
    return root->emitError()
           << "could not be tiled by the cache tile " << config.getCacheTile();
  if (failed(cleanUpTiling(func)))
    return failure();
  Operation *current = findConfiguredOp(func);
  if (!current)
    return success();
  if (failed(tileAndPeel(rewriter, cast<TilingInterface>(current),
                         config.getRegisterTile())))
    return current->emitError() << "could not be tiled by the register tile "
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
