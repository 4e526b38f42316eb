//===- TileWithEpilogue.cpp - Tiles of a root and its epilogue ------------===//
//
// A root op and what its dispatch does to each of its results' elements
// (bias, activation, residual addition: its epilogue) tiled together, with
// the fill that starts its accumulators: each tile starts, computes and
// finishes one tile of the root's result while it is in registers or L1,
// instead of a pass over the workgroup's tile for the fill before the root
// and one for the epilogue after it.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace kiln;

/// Marks the epilogue's and fill's register tiles until they are
/// vectorized whole (vectorizeRegisterEpilogues).
static constexpr StringLiteral kRegisterEpilogueMarker =
    "kiln.register_epilogue";

SmallVector<linalg::LinalgOp> kiln::getEpilogue(linalg::LinalgOp root) {
  SmallVector<linalg::LinalgOp> chain;
  if (root->getNumResults() != 1)
    return chain;
  Value value = root->getResult(0);
  while (value.hasOneUse()) {
    OpOperand &use = *value.use_begin();
    auto user = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (!user || !user.hasPureTensorSemantics() || user->getNumResults() != 1 ||
        user.getNumDpsInits() != 1 ||
        user.getNumLoops() != user.getNumParallelLoops() ||
        user.isDpsInit(&use) ||
        user.getNumLoops() != cast<ShapedType>(value.getType()).getRank() ||
        !user.getMatchingIndexingMap(&use).isIdentity() ||
        !user.getIndexingMapMatchingResult(user->getResult(0)).isIdentity() ||
        cast<ShapedType>(user->getResult(0).getType()).getShape() !=
            cast<ShapedType>(value.getType()).getShape())
      break;
    chain.push_back(user);
    value = user->getResult(0);
  }
  return chain;
}

/// Peels the partial last iteration of each of `loops`, innermost first,
/// so that the partial tiles of outer loops hold peeled inner loops too.
static void peelLoops(RewriterBase &rewriter,
                      ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : llvm::reverse(loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    scf::ForOp partial;
    if (forOp)
      (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
}

LogicalResult kiln::tileWithEpilogue(RewriterBase &rewriter,
                                     TilingInterface root,
                                     ArrayRef<int64_t> sizes,
                                     bool markRegisterTiles) {
  SmallVector<int64_t> parallel = sizesOfKind(root, sizes, /*parallel=*/true);
  if (llvm::all_of(parallel, [](int64_t size) { return size == 0; }))
    return success();
  auto linalgRoot = dyn_cast<linalg::LinalgOp>(root.getOperation());
  SmallVector<linalg::LinalgOp> epilogue;
  AffineMap map;
  if (linalgRoot && linalgRoot.hasPureTensorSemantics() &&
      linalgRoot.getNumDpsInits() == 1) {
    map = linalgRoot.getMatchingIndexingMap(linalgRoot.getDpsInitOperand(0));
    // The epilogue's loops are the result's dims: each parallel loop the
    // root tiles must be one of them.
    bool covered = map.isProjectedPermutation();
    for (auto [loop, size] : llvm::enumerate(parallel))
      covered &= size == 0 || map.isFunctionOfDim(loop);
    if (covered)
      epilogue = getEpilogue(linalgRoot);
  }
  // The op that is tiled; the root and the rest are fused into its tiles.
  TilingInterface consumer = root;
  SmallVector<int64_t> consumerSizes = parallel;
  if (!epilogue.empty()) {
    consumer = cast<TilingInterface>(epilogue.back().getOperation());
    consumerSizes.clear();
    for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
      consumerSizes.push_back(parallel[map.getDimPosition(dim)]);
  }
  llvm::SmallPtrSet<Operation *, 8> fusable;
  fusable.insert(root);
  for (linalg::LinalgOp op : epilogue)
    fusable.insert(op);
  if (linalgRoot)
    for (OpOperand &init : linalgRoot.getDpsInitsMutable())
      if (auto fill = init.get().getDefiningOp<linalg::FillOp>())
        if (fill->hasOneUse())
          fusable.insert(fill);

  scf::SCFTileAndFuseOptions options;
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(
      getAsIndexOpFoldResult(root->getContext(), consumerSizes));
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        if (!fusable.contains(producer.getOwner()))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(consumer);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, consumer, options);
  if (failed(result))
    return failure();
  for (OpResult value : consumer->getResults())
    if (Value replacement = result->replacements.lookup(value))
      rewriter.replaceAllUsesWith(value, replacement);
  // The untiled ops are dead now; users first.
  SmallVector<Operation *> untiled;
  for (linalg::LinalgOp op : llvm::reverse(epilogue))
    untiled.push_back(op);
  untiled.push_back(root);
  for (Operation *op : result->fusedProducers)
    if (!llvm::is_contained(untiled, op))
      untiled.push_back(op);
  for (Operation *op : untiled)
    if (op->use_empty())
      rewriter.eraseOp(op);
  if (markRegisterTiles)
    for (Operation *op : result->tiledAndFusedOps)
      if (!op->hasAttr(KilnDialect::getLoweringConfigAttrName()))
        op->setAttr(kRegisterEpilogueMarker, rewriter.getUnitAttr());
  peelLoops(rewriter, result->loops);
  return success();
}

void kiln::vectorizeRegisterEpilogues(RewriterBase &rewriter,
                                      func::FuncOp func) {
  SmallVector<Operation *> marked;
  func.walk([&](Operation *op) {
    if (op->hasAttr(kRegisterEpilogueMarker))
      marked.push_back(op);
  });
  for (Operation *op : marked) {
    op->removeAttr(kRegisterEpilogueMarker);
    // Static tiles only: a tile with a run-time size is left to the
    // vector-sized tiling of the other parallel ops, which masks it.
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && linalgOp.hasPureTensorSemantics() &&
        !linalgOp.hasDynamicShape())
      vectorizeOp(rewriter, op, {}, /*contraction=*/false);
  }
}
