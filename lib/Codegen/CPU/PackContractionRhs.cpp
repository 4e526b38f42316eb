//===- PackContractionRhs.cpp - B of a matmul into register panels --------===//
//
// Packs the B operand of a cache tile of a contraction into panels as wide
// as the register tile, contiguous along K: B stored transposed (a linear
// layer's weight, attention's K), and B whose rows would collide in the L1
// cache; other B is read in place.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace kiln;

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

/// Copies B into its panels directly when each panel row is a run of B's
/// innermost dim: one vector read per panel row and one write. Where the
/// last panel may be partial, the reads are bounds-checked (masked loads):
/// lanes past B's edge take the padding value. linalg::lowerPack would
/// first copy B into a padded tensor, a pass over memory (and a fill) as
/// costly as the packing itself. Fails, leaving the op, for packs of any
/// other form (B transposed: panel rows are columns of B).
static LogicalResult lowerPanelPack(RewriterBase &rewriter,
                                    linalg::PackOp packOp) {
  RankedTensorType sourceType = packOp.getSourceType();
  int64_t rank = sourceType.getRank();
  ArrayRef<int64_t> tiles = packOp.getStaticInnerTiles();
  if (rank < 1 || packOp.getInnerDimsPos() != ArrayRef<int64_t>{rank - 1} ||
      tiles.size() != 1 || ShapedType::isDynamic(tiles[0]) ||
      !sourceType.getElementType().isIntOrFloat())
    return failure();
  int64_t nr = tiles[0];
  SmallVector<int64_t> perm(packOp.getOuterDimsPerm());
  if (perm.empty())
    perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));

  Location loc = packOp.getLoc();
  rewriter.setInsertionPoint(packOp);
  Value source = packOp.getSource();
  Type elementType = sourceType.getElementType();
  Value padding = packOp.getPaddingValue();
  if (!padding)
    padding = arith::ConstantOp::create(rewriter, loc, elementType,
                                        rewriter.getZeroAttr(elementType));
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, nr);
  // A partial panel exists unless the tiled dim is a static multiple of nr.
  int64_t tiledSize = sourceType.getDimSize(rank - 1);
  bool inBounds = !ShapedType::isDynamic(tiledSize) && tiledSize % nr == 0;
  auto vectorType = VectorType::get({nr}, elementType);

  // One loop per outer dim of the packed tensor, in its (memory) order.
  SmallVector<Value> sourceIndices(rank);
  Value dest = packOp.getDest();
  SmallVector<scf::ForOp> loops;
  for (int64_t outer = 0; outer < rank; ++outer) {
    Value upper = tensor::DimOp::create(rewriter, loc, dest, outer);
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, upper, one,
        ValueRange{loops.empty() ? dest
                                 : loops.back().getRegionIterArgs().front()});
    if (!loops.empty())
      scf::YieldOp::create(rewriter, loc, loop.getResults());
    rewriter.setInsertionPointToStart(loop.getBody());
    Value index = loop.getInductionVar();
    int64_t sourceDim = perm[outer];
    sourceIndices[sourceDim] =
        sourceDim == rank - 1
            ? arith::MulIOp::create(rewriter, loc, index, step).getResult()
            : index;
    loops.push_back(loop);
  }
  Value row = vector::TransferReadOp::create(rewriter, loc, vectorType, source,
                                             sourceIndices, padding,
                                             ArrayRef<bool>{inBounds});
  SmallVector<Value> destIndices;
  for (scf::ForOp loop : loops)
    destIndices.push_back(loop.getInductionVar());
  destIndices.push_back(zero);
  Value written =
      vector::TransferWriteOp::create(rewriter, loc, row,
                                      loops.back().getRegionIterArgs().front(),
                                      destIndices, ArrayRef<bool>{true})
          .getResult();
  scf::YieldOp::create(rewriter, loc, written);
  rewriter.replaceOp(packOp, loops.front().getResults());
  return success();
}

/// The bytes of an L1 cache line, and the span of addresses one way of an
/// x86 L1 data cache covers (32 KiB 8-way and 48 KiB 12-way alike): two
/// addresses this far apart map to the same set.
static constexpr int64_t kCacheLineBytes = 64;
static constexpr int64_t kL1WayBytes = 4096;

/// Below this many register tiles of rows per cache tile, a packed panel
/// is read too few times to repay its packing (LLM decode, M = 1 to 16).
static constexpr int64_t kMinRowTilesToPack = 4;

/// Whether a register tile is to read the B operand `rhs` ([K][N], N
/// innermost) of the cache-tiled `op` in place rather than from packed
/// panels. It is, unless B's rows start less than a cache line apart
/// modulo an L1 way (N * element size near a multiple of 4 KiB: 1024 or
/// 1023 floats, 2048, 3072, 8192) and the cache tile has enough register
/// tiles of rows to reuse a panel: such rows pile into the same cache sets
/// and a register tile's strip of B is evicted before the next tile of
/// rows reads it again. Measured on a Zen 5, ms packed -> in place: 97^3
/// 0.0115 -> 0.0105, 1000^3 12.4 -> 10.8, 128x768x768 0.836 -> 0.729,
/// 16x4096x4096 8.56 -> 6.88; but 1023^3 12.4 -> 14.5, 1024^3 11.7 ->
/// 12.5, 2048^3 95.5 -> 101.7, 64x8192x64 0.394 -> 0.437
/// (docs/performance.md). B of a dynamic row length is read in place.
static bool readsRowsInPlace(linalg::LinalgOp op, Value rhs, unsigned m,
                             LoweringConfigAttr config) {
  // The whole B the tile is a slice of: its rows' length is the stride.
  Value whole = rhs;
  while (auto slice = whole.getDefiningOp<tensor::ExtractSliceOp>())
    whole = slice.getSource();
  auto type = dyn_cast<RankedTensorType>(whole.getType());
  if (!type || type.getRank() == 0 || !type.getElementType().isIntOrFloat())
    return true;
  int64_t rowLength = type.getShape().back();
  if (ShapedType::isDynamic(rowLength))
    return true;
  int64_t elementBits = type.getElementType().getIntOrFloatBitWidth();
  int64_t rowBytes = rowLength * std::max<int64_t>(8, elementBits) / 8;
  int64_t offset = rowBytes % kL1WayBytes;
  bool collide = std::min(offset, kL1WayBytes - offset) < kCacheLineBytes;
  if (!collide)
    return true;
  // Rows of the cache tile: its size along M, or the op's when untiled.
  ArrayRef<int64_t> cacheTile = config.getCacheTile();
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  int64_t rows = m < cacheTile.size() ? cacheTile[m] : 0;
  if (rows <= 0)
    rows = op.getStaticLoopRanges()[m];
  int64_t rowTile = m < registerTile.size() ? registerTile[m] : 1;
  if (ShapedType::isDynamic(rows) || rowTile <= 0)
    return false;
  return rows < kMinRowTilesToPack * rowTile;
}

/// Packs the B operand of a cache-tiled matmul-like op into panels of `nr`
/// columns, [N/nr][K][nr], so that the register tile streams through
/// contiguous memory; a partial last panel is padded with zeros. The
/// accumulator is only reshaped when `nr` divides it, padded otherwise.
/// Returns the packed op, whose loops are (..., n / nr, ..., n % nr), with
/// a config for it. Fails, leaving `op`, where B's rows run along N and are
/// read in place (readsRowsInPlace).
FailureOr<linalg::LinalgOp>
kiln::packContractionRhs(RewriterBase &rewriter, linalg::LinalgOp op,
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
  // B whose N is its innermost dim ([K][N], batched or not) is left in
  // place where it can be: its rows are runs of memory already, and the
  // pass over B that packing costs per cache tile is not repaid
  // (readsRowsInPlace). B^T ([N][K]) is packed: its panel rows are columns
  // in memory.
  if (*kPos < *nPos && *nPos == rhsMap.getNumResults() - 1 &&
      readsRowsInPlace(op, rhs->get(), dims->m.back(), config))
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
    if (succeeded(lowerPanelPack(rewriter, transposed->transposedPackOp)))
      continue;
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
