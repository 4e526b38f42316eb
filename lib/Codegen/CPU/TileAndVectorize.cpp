//===- TileAndVectorize.cpp - Inner tiling and vectorization --------------===//
//
// Within each workgroup tile: the root op is tiled by the cache and
// register levels of its lowering config and vectorized; every other
// all-parallel op (fills, fused producers and consumers) is tiled into
// vector-sized pieces and vectorized; partial tiles are masked. For
// contractions the accumulator tile is then kept in registers across the
// reduction loop, while still on tensors.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Codegen/Common/Utils.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZEPASS
#include "kiln/Codegen/CPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

static constexpr StringLiteral kPipelines[] = {
    "cpu-contraction", "cpu-elementwise", "cpu-reduction", "cpu-default"};

/// A register tile is unrolled into vector ops; past this many elements
/// (eight times what 32 zmm registers hold in f32, twice in i8) it spills
/// everything and unrolling takes longer than the rest of the compile.
static constexpr int64_t kMaxRegisterTileElements = 4096;

LogicalResult
kiln::verifyCPULoweringConfig(Operation *root, LoweringConfigAttr config,
                              function_ref<InFlightDiagnostic()> emitError) {
  StringRef pipeline = config.getPipeline().getValue();
  if (!llvm::is_contained(kPipelines, pipeline))
    return emitError() << "pipeline '" << pipeline
                       << "' is not one the llvm-cpu backend has (it has "
                          "cpu-contraction, cpu-elementwise, cpu-reduction "
                          "and cpu-default)";
  if (pipeline == "cpu-contraction") {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
    if (!linalgOp || !linalg::isaContractionOpInterface(linalgOp))
      return emitError() << "pipeline 'cpu-contraction' needs a contraction, "
                            "and '"
                         << root->getName() << "' is none";
  }
  struct Level {
    StringRef name;
    ArrayRef<int64_t> sizes;
  };
  for (Level level : {Level{"register tile", config.getRegisterTile()},
                      Level{"vector shape", config.getVectorSizes()}}) {
    int64_t elements = 1;
    bool overflow = false;
    for (int64_t size : level.sizes)
      if (size > 0)
        overflow |= llvm::MulOverflow(elements, size, elements);
    if (overflow || elements > kMaxRegisterTileElements)
      return emitError() << "its " << level.name << " holds "
                         << (overflow ? std::string("more than 2^63")
                                      : std::to_string(elements))
                         << " elements, more than vector registers hold (at "
                            "most "
                         << kMaxRegisterTileElements << ")";
  }
  // A vector smaller than its register tile cannot vectorize the tile.
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  ArrayRef<int64_t> vectorSizes = config.getVectorSizes();
  for (auto [loop, sizes] :
       llvm::enumerate(llvm::zip(registerTile, vectorSizes))) {
    auto [tile, vector] = sizes;
    if (tile > 0 && vector < tile)
      return emitError() << "its vector size " << vector << " for loop " << loop
                         << " is smaller than the register tile's " << tile
                         << " (vectors cover the register tile)";
  }
  return success();
}

/// Folds what tiling leaves behind: constant tile sizes become static
/// shapes, slices of empty tensors empty tensors, and slices feeding vector
/// transfers fold into them.
static LogicalResult cleanUp(Operation *root) {
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
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

/// Tiles `op` by `sizes` (0: not tiled) with scf.for loops, replacing it.
/// Returns the tiled op.
static FailureOr<Operation *> tile(RewriterBase &rewriter, TilingInterface op,
                                   ArrayRef<int64_t> sizes) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return op.getOperation();
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op->getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result =
      scf::tileUsingSCF(rewriter, op, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result->tiledOps.front();
}

/// Vectorizes `op`, masking it to `vectorSizes` when its shape is not
/// static. Leaves ops the vectorizer does not support alone.
static void vectorize(RewriterBase &rewriter, Operation *op,
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

/// Moves the masks of masked transfers into the transfers themselves, so
/// that no vector.mask region is left for canonicalization to break.
static LogicalResult lowerTransferMasks(Operation *root) {
  RewritePatternSet patterns(root->getContext());
  vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
  return applyPatternsGreedily(root, std::move(patterns));
}

/// Loop sizes of `op`, dynamic ones as ShapedType::kDynamic.
static SmallVector<int64_t> getStaticLoopSizes(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.getStaticLoopRanges();
  return {};
}

/// The vector-sized tile of an all-parallel op: one vector register's worth
/// of elements (times `unroll`) along the innermost loop, 1 elsewhere.
static SmallVector<int64_t> getVectorTile(linalg::LinalgOp op, int64_t lanes,
                                          int64_t unroll) {
  SmallVector<int64_t> sizes = getStaticLoopSizes(op);
  SmallVector<int64_t> tile(sizes.size(), 1);
  if (tile.empty())
    return tile;
  int64_t inner = sizes.back();
  tile.back() = ShapedType::isDynamic(inner)
                    ? lanes * unroll
                    : std::min<int64_t>(inner, lanes * unroll);
  return tile;
}

/// The lanes of one vector register for `op`'s element type.
static int64_t getLanes(Operation *op, int64_t vectorBits) {
  Type type =
      op->getNumResults() ? getElementTypeOrSelf(op->getResult(0)) : Type();
  unsigned bits = type && type.isIntOrFloat()
                      ? std::max(8u, type.getIntOrFloatBitWidth())
                      : 32;
  return std::max<int64_t>(1, vectorBits / bits);
}

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

namespace {
struct CPUTileAndVectorizePass
    : public kiln::impl::CPUTileAndVectorizePassBase<CPUTileAndVectorizePass> {
  void runOnOperation() override;

private:
  LogicalResult tileRoot(RewriterBase &rewriter, Operation *root,
                         LoweringConfigAttr config);
  bool tileReductionIntoVectors(RewriterBase &rewriter, Operation *root,
                                LoweringConfigAttr config);
  void vectorizeParallelOps(RewriterBase &rewriter, int64_t vectorBits);
  void hoistAccumulators(RewriterBase &rewriter);
};
} // namespace

/// The op of `func` that carries a lowering config: the root, or what
/// tiling and canonicalization made of it.
static Operation *findConfiguredOp(func::FuncOp func) {
  Operation *found = nullptr;
  func.walk([&](TilingInterface op) {
    if (op->hasAttr(KilnDialect::getLoweringConfigAttrName()))
      found = op;
  });
  return found;
}

/// True when `unpackOp` takes whole tiles only: every tiled dim of its
/// result is a static multiple of its static tile.
static bool isWholePanels(linalg::UnPackOp unpackOp) {
  ArrayRef<int64_t> shape = unpackOp.getDestType().getShape();
  for (auto [pos, tile] :
       llvm::zip_equal(unpackOp.getInnerDimsPos(), unpackOp.getStaticTiles()))
    if (ShapedType::isDynamic(shape[pos]) || ShapedType::isDynamic(tile) ||
        tile <= 0 || shape[pos] % tile != 0)
      return false;
  return true;
}

/// Packs the B operand of a cache-tiled matmul-like op into panels of `nr`
/// columns, [N/nr][K][nr], so that the register tile streams through
/// contiguous memory; a partial last panel is padded with zeros. The
/// accumulator is only reshaped when `nr` divides it, padded otherwise.
/// Returns the packed op, whose loops are (..., n / nr, ..., n % nr), with
/// a config for it.
static FailureOr<linalg::LinalgOp> packRhs(RewriterBase &rewriter,
                                           linalg::LinalgOp op,
                                           LoweringConfigAttr config) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->n.empty() || dims->k.empty() || dims->m.empty())
    return failure();
  // Packing replaces `op`: nothing below may touch it once it has.
  MLIRContext *context = op.getContext();
  unsigned n = dims->n.back();
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  int64_t nr = n < registerTile.size() ? registerTile[n] : 0;
  if (nr <= 1)
    return failure();

  // B's dims in memory order: panels need n (outer) before k.
  OpOperand *rhs = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.isFunctionOfDim(n) && map.isFunctionOfDim(dims->k.back()) &&
        !map.isFunctionOfDim(dims->m.back()))
      rhs = input;
  }
  if (!rhs)
    return failure();
  AffineMap rhsMap = op.getMatchingIndexingMap(rhs);
  std::optional<unsigned> nPos =
      rhsMap.getResultPosition(getAffineDimExpr(n, op.getContext()));
  std::optional<unsigned> kPos = rhsMap.getResultPosition(
      getAffineDimExpr(dims->k.back(), op.getContext()));
  if (!nPos || !kPos)
    return failure();
  SmallVector<int64_t> outerPerm =
      llvm::to_vector(llvm::seq<int64_t>(0, rhsMap.getNumResults()));
  if (*kPos < *nPos)
    std::swap(outerPerm[*kPos], outerPerm[*nPos]);

  SmallVector<OpFoldResult> packedSizes(op.getNumLoops(),
                                        rewriter.getIndexAttr(0));
  packedSizes[n] = rewriter.getIndexAttr(nr);
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::PackResult> packed =
      linalg::pack(rewriter, op, packedSizes);
  if (failed(packed))
    return failure();
  linalg::LinalgOp packedOp = packed->packedLinalgOp;

  // B (an input) becomes [N/nr][K][nr]; C, packed only along its
  // innermost dim, is only reshaped when nr divides it.
  SmallVector<Operation *> reshapeable;
  for (linalg::UnPackOp unpackOp : packed->unPackOps)
    if (isWholePanels(unpackOp))
      reshapeable.push_back(unpackOp);
  for (linalg::PackOp packOp : packed->packOps) {
    bool isInput =
        llvm::any_of(packedOp.getDpsInputOperands(), [&](OpOperand *operand) {
          return operand->get() == packOp.getResult();
        });
    if (!isInput) {
      reshapeable.push_back(packOp);
      continue;
    }
    FailureOr<linalg::PackTransposeResult> transposed = linalg::packTranspose(
        rewriter, packOp, packedOp, linalg::UnPackOp(), outerPerm,
        /*innerPerm=*/{});
    if (failed(transposed))
      return failure();
    packedOp = transposed->transposedLinalgOp;
    rewriter.setInsertionPoint(transposed->transposedPackOp);
    if (failed(linalg::lowerPack(rewriter, transposed->transposedPackOp)))
      return failure();
  }
  // Only the ops known to be reshapes: MLIR's simplification turns the
  // unpack of a partial panel of dynamic size (an M = 1 tile) into a
  // collapse_shape that keeps the padding; such unpacks stay for
  // DecomposeOps, which slices the padding off.
  RewritePatternSet patterns(context);
  linalg::populateSimplifyPackAndUnpackPatterns(patterns);
  GreedyRewriteConfig strict;
  strict.setStrictness(GreedyRewriteStrictness::ExistingOps);
  if (failed(applyOpPatternsGreedily(reshapeable, std::move(patterns), strict)))
    return failure();

  // The packed op's loops: the original ones, then the packed n % nr loop.
  // Register tile: mr rows, one panel, one k step; vectors of nr.
  unsigned numLoops = packedOp.getNumLoops();
  SmallVector<int64_t> packedRegister(numLoops, 1), packedVector(numLoops, 1);
  for (unsigned loop = 0; loop < registerTile.size(); ++loop) {
    packedRegister[loop] = loop == n ? 1 : registerTile[loop];
    packedVector[loop] = packedRegister[loop];
  }
  packedRegister[numLoops - 1] = 0;
  packedVector[numLoops - 1] = nr;
  packedOp->setAttr(KilnDialect::getLoweringConfigAttrName(),
                    LoweringConfigAttr::get(context, config.getPipeline(), {},
                                            {}, packedRegister, packedVector));
  return packedOp;
}

/// Tiles the root by its cache tile, then (for contractions, packing B
/// into panels in between) by its register tile, so that the innermost op
/// is one register tile, and vectorizes it.
/// Reductions along the innermost loop: rows are tiled by the parallel
/// register tile, and each row is reduced into a vector of partial results
/// (the reduction register tile wide) that stays in registers across the
/// row and is merged into the result once, instead of reducing every
/// vector horizontally. Returns false, leaving `root` as it was, when the
/// op does not fit that scheme.
bool CPUTileAndVectorizePass::tileReductionIntoVectors(
    RewriterBase &rewriter, Operation *root, LoweringConfigAttr config) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      registerTile.size() != linalgOp.getNumLoops() ||
      !hasMergeableReductions(linalgOp))
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
      tile(rewriter, cast<TilingInterface>(root), parallelTile);
  if (failed(rows))
    return false;
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(&getContext(), reductionTile));
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
  getOperation().walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(configName))
      tiles.push_back(op);
  });
  for (Operation *tile : tiles)
    vectorize(rewriter, tile, config.getEffectiveVectorSizes(),
              /*contraction=*/false);
  // The merges are small and static.
  for (Operation *merge : partial->mergeOps)
    vectorize(rewriter, merge, {}, /*contraction=*/false);
  return true;
}

LogicalResult CPUTileAndVectorizePass::tileRoot(RewriterBase &rewriter,
                                                Operation *root,
                                                LoweringConfigAttr config) {
  bool contraction = config.getPipeline() == "cpu-contraction";
  auto tilingOp = dyn_cast<TilingInterface>(root);
  if (!tilingOp)
    return success();
  FailureOr<Operation *> tiled =
      tile(rewriter, tilingOp, config.getCacheTile());
  if (failed(tiled))
    return root->emitError()
           << "could not be tiled by the cache tile " << config.getCacheTile();
  if (failed(cleanUp(getOperation())))
    return failure();
  // Canonicalization may have replaced the op; the config marks it.
  Operation *current = findConfiguredOp(getOperation());
  if (!current)
    return success();
  if (!contraction && tileReductionIntoVectors(rewriter, current, config))
    return success();
  if (contraction) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(current)) {
      FailureOr<linalg::LinalgOp> packed = packRhs(rewriter, linalgOp, config);
      if (succeeded(packed)) {
        current = *packed;
        config = current->getAttrOfType<LoweringConfigAttr>(
            KilnDialect::getLoweringConfigAttrName());
      }
    }
  }
  // Register tiles; partial ones (at the edges of a partial cache tile)
  // are peeled off so that full tiles vectorize without masks.
  scf::SCFTilingOptions options;
  options.setTileSizes(
      getAsIndexOpFoldResult(&getContext(), config.getRegisterTile()));
  rewriter.setInsertionPoint(current);
  FailureOr<scf::SCFTilingResult> tiledResult =
      scf::tileUsingSCF(rewriter, cast<TilingInterface>(current), options);
  if (failed(tiledResult))
    return current->emitError() << "could not be tiled by the register tile "
                                << config.getRegisterTile();
  rewriter.replaceOp(current, tiledResult->replacements);
  auto iterators = cast<TilingInterface>(tiledResult->tiledOps.front())
                       .getLoopIteratorTypes();
  SmallVector<scf::ForOp> parallelLoops;
  unsigned loopIndex = 0;
  for (auto [dim, size] : llvm::enumerate(config.getRegisterTile())) {
    if (size == 0)
      continue;
    auto loop =
        dyn_cast<scf::ForOp>(tiledResult->loops[loopIndex++].getOperation());
    if (loop && iterators[dim] == utils::IteratorType::parallel)
      parallelLoops.push_back(loop);
  }
  for (scf::ForOp loop : parallelLoops) {
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial);
  }
  if (config.getEffectiveVectorSizes().empty())
    return success();
  SmallVector<Operation *> tiles;
  getOperation().walk([&](TilingInterface op) {
    if (op->hasAttr(KilnDialect::getLoweringConfigAttrName()))
      tiles.push_back(op);
  });
  for (Operation *tile : tiles)
    vectorize(rewriter, tile, config.getEffectiveVectorSizes(), contraction);
  return success();
}

/// Tiles every remaining all-parallel linalg op into vector-sized pieces
/// and vectorizes them: fills, fused producers and consumers, elementwise
/// roots.
void CPUTileAndVectorizePass::vectorizeParallelOps(RewriterBase &rewriter,
                                                   int64_t vectorBits) {
  SmallVector<linalg::LinalgOp> ops;
  getOperation().walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() &&
        op.getNumLoops() == op.getNumParallelLoops() && op.getNumLoops() > 0)
      ops.push_back(op);
  });
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> tileSizes =
        getVectorTile(op, getLanes(op, vectorBits), /*unroll=*/2);
    FailureOr<Operation *> tiled =
        tile(rewriter, cast<TilingInterface>(op.getOperation()), tileSizes);
    if (succeeded(tiled))
      vectorize(rewriter, *tiled, tileSizes, /*contraction=*/false);
  }
}

/// Keeps vector accumulators in registers across loops: reads and writes
/// of loop-carried tensor slices that do not depend on the loop move out
/// of it, innermost loops first.
void CPUTileAndVectorizePass::hoistAccumulators(RewriterBase &rewriter) {
  SmallVector<scf::ForOp> loops;
  getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    moveLoopInvariantCode(cast<LoopLikeOpInterface>(loop.getOperation()));
    hoistLoopInvariantSubsets(rewriter,
                              cast<LoopLikeOpInterface>(loop.getOperation()));
  }
}

void CPUTileAndVectorizePass::runOnOperation() {
  func::FuncOp func = getOperation();
  IRRewriter rewriter(&getContext());
  auto [root, config] = getRootOpAndConfig(func);
  auto variant = func->getParentOfType<ExecutableVariantOp>();
  int64_t vectorBits =
      getCPUTargetInfo(variant ? variant.getTarget() : TargetAttr()).vectorBits;

  if (root && config) {
    StringRef pipeline = config.getPipeline().getValue();
    if (!llvm::is_contained(kPipelines, pipeline)) {
      root->emitError() << "lowering config names pipeline '" << pipeline
                        << "', which the llvm-cpu backend does not have "
                           "(it has cpu-contraction, cpu-elementwise, "
                           "cpu-reduction and cpu-default)";
      return signalPassFailure();
    }
    if (pipeline == "cpu-contraction" || pipeline == "cpu-reduction") {
      if (failed(tileRoot(rewriter, root, config)))
        return signalPassFailure();
    }
  }
  vectorizeParallelOps(rewriter, vectorBits);
  if (failed(lowerTransferMasks(func)) || failed(cleanUp(func)))
    return signalPassFailure();
  hoistAccumulators(rewriter);
  if (failed(cleanUp(func)))
    return signalPassFailure();
}
