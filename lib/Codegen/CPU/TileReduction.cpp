//===- TileReduction.cpp - Reductions in vectors of partial results -------===//
//
// The inner tiling of the cpu-reduction pipeline for reductions along the
// innermost loop, and for softmax, whose rows are such reductions and
// elementwise ops: each row is reduced into a vector of partial results
// held in registers and merged once at its end.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

using namespace mlir;
using namespace kiln;

/// True when every reduction of `op` combines with one op that has a
/// neutral element (add, mul, max, min, and, or, ...): what reducing into a
/// vector of partial results and merging them at the end needs.
static bool hasMergeableReductions(linalg::LinalgOp op) {
  for (unsigned i = 0, e = op.getNumDpsInits(); i < e; ++i) {
    SmallVector<Operation *> combiners;
    if (!matchReduction(op.getRegionOutputArgs(), i, combiners) ||
        combiners.size() != 1 || !arith::getNeutralElement(combiners.front()))
      return false;
  }
  return true;
}

/// Reductions along the innermost loop: rows are tiled by the parallel
/// register tile, and each row is reduced into a vector of partial results
/// (the reduction register tile wide) that stays in registers across the
/// row and is merged into the result once, instead of reducing every
/// vector horizontally. Returns false, leaving `root` as it was, when the
/// op does not fit that scheme.
bool kiln::tileReductionIntoVectors(RewriterBase &rewriter, func::FuncOp func,
                                    Operation *root,
                                    LoweringConfigAttr config) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      registerTile.size() != linalgOp.getNumLoops() ||
      !hasMergeableReductions(linalgOp))
    return false;
  // Upstream's partial-reduction tiling leaves linalg.index ops reading
  // the tile's positions, not the op's (a gather summed over rows read row
  // 0 every time): such ops take the plain tiling.
  if (linalgOp.hasIndexSemantics())
    return false;
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  if (iterators.empty() || iterators.back() != utils::IteratorType::reduction ||
      registerTile.back() <= 1)
    return false;

  SmallVector<int64_t> parallelTile(registerTile), reductionTile(registerTile);
  SmallVector<unsigned> reductionDims;
  for (auto [dim, type] : llvm::enumerate(iterators)) {
    if (type == utils::IteratorType::reduction) {
      parallelTile[dim] = 0;
      if (reductionTile[dim] > 0)
        reductionDims.push_back(dim);
    } else {
      reductionTile[dim] = 0;
    }
  }

  // Rows first, then each row in vectors of partial results.
  FailureOr<Operation *> rows =
      tileOp(rewriter, cast<TilingInterface>(root), parallelTile);
  if (failed(rows))
    return false;
  scf::SCFTilingOptions options;
  options.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), reductionTile));
  options.setReductionTilingStrategy(
      ReductionTilingStrategy::PartialReductionOuterReduction);
  options.setReductionDims(reductionDims);
  rewriter.setInsertionPoint(*rows);
  FailureOr<scf::SCFTilingResult> partial =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(*rows), options);
  if (failed(partial))
    return false;
  rewriter.replaceOp(*rows, partial->replacements);

  // Partial tiles go to a loop of their own, so that full tiles need no
  // mask. The partial reduction ops carry the config: the vector sizes
  // are the register tile.
  StringRef configName = KilnDialect::getLoweringConfigAttrName();
  for (Operation *op : partial->tiledOps)
    op->setAttr(configName, config);
  for (LoopLikeOpInterface loop : partial->loops) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    scf::ForOp remainder;
    if (forOp)
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, remainder);
  }
  SmallVector<Operation *> tiles;
  func.walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(configName))
      tiles.push_back(op);
  });
  for (Operation *tile : tiles)
    vectorizeOp(rewriter, tile, config.getEffectiveVectorSizes(),
                /*contraction=*/false);
  // The merges are small and static.
  for (Operation *merge : partial->mergeOps)
    vectorizeOp(rewriter, merge, {}, /*contraction=*/false);
  return true;
}

bool kiln::isRowSoftmax(Operation *op) {
  auto softmax = dyn_cast_or_null<linalg::SoftmaxOp>(op);
  return softmax && softmax.hasPureTensorSemantics() &&
         static_cast<int64_t>(softmax.getDimension()) + 1 ==
             softmax.getInputOperandRank();
}

LogicalResult kiln::tileAndVectorizeSoftmax(RewriterBase &rewriter,
                                            func::FuncOp func, Operation *root,
                                            LoweringConfigAttr config) {
  // Rows first (the cache tile), so that a row's exponentials are still in
  // L1 when they are summed and divided.
  FailureOr<Operation *> rows =
      tileOp(rewriter, cast<TilingInterface>(root), config.getCacheTile());
  if (failed(rows))
    return root->emitError()
           << "could not be tiled by the cache tile " << config.getCacheTile();
  // Its reductions (maximum, sum) and elementwise steps; the elementwise
  // ones are vectorized with the rest of the function's.
  rewriter.setInsertionPoint(*rows);
  FailureOr<SmallVector<Value>> steps =
      cast<linalg::AggregatedOpInterface>(*rows).decomposeOperation(rewriter);
  if (failed(steps))
    return (*rows)->emitError() << "could not be decomposed";
  rewriter.replaceOp(*rows, *steps);
  SmallVector<linalg::LinalgOp> reductions;
  func.walk([&](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() > 0)
      reductions.push_back(op);
  });
  StringRef configName = KilnDialect::getLoweringConfigAttrName();
  for (linalg::LinalgOp reduction : reductions) {
    reduction->setAttr(configName, config);
    if (!tileReductionIntoVectors(rewriter, func, reduction, config))
      reduction->removeAttr(configName);
  }
  return success();
}
