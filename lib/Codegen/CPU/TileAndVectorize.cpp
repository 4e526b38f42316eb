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

#include "TilingUtils.h"
#include "kiln/Codegen/CPU/CPUPipelines.h"
#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Codegen/Common/Utils.h"
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
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_CPUTILEANDVECTORIZEPASS
#include "kiln/Codegen/CPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// A register tile is unrolled into vector ops; past this many elements
/// (eight times what 32 zmm registers hold in f32, twice in i8) it spills
/// everything and unrolling takes longer than the rest of the compile.
static constexpr int64_t kMaxRegisterTileElements = 4096;

/// The register tile of a 2-D convolution must cover one row of output
/// and one row of the filter window (or one column of each): such a tile
/// is a 1-D convolution, which is what vectorizes.
static LogicalResult
verifyConvolutionTile(linalg::LinalgOp op, ArrayRef<int64_t> registerTile,
                      function_ref<InFlightDiagnostic()> emitError) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims))
    return emitError() << "pipeline 'cpu-convolution' needs a convolution "
                          "or pooling, and '"
                       << op->getName() << "' is none";
  if (dims->outputImage.size() != 2 || dims->filterLoop.size() != 2)
    return success();
  auto isOne = [&](unsigned loop) {
    return loop < registerTile.size() && registerTile[loop] == 1;
  };
  for (unsigned i = 0; i < 2; ++i)
    if (isOne(dims->outputImage[i]) && isOne(dims->filterLoop[i]))
      return success();
  return emitError() << "its register tile "
                     << llvm::interleaved_array(registerTile)
                     << " must be 1 along an output image loop and the "
                        "filter loop beside it (loops "
                     << dims->outputImage[0] << " and " << dims->filterLoop[0]
                     << ", or " << dims->outputImage[1] << " and "
                     << dims->filterLoop[1]
                     << "): a tile of one output row is what vectorizes";
}

LogicalResult
kiln::verifyCPULoweringConfig(Operation *root, LoweringConfigAttr config,
                              function_ref<InFlightDiagnostic()> emitError) {
  // Target-independent checks, the pipeline's name included, come first
  // (kiln::verifyLoweringConfig).
  std::optional<CPUPipeline> pipeline = getCPUPipeline(config);
  if (pipeline == CPUPipeline::Contraction) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
    if (!linalgOp || !linalg::isaContractionOpInterface(linalgOp))
      return emitError() << "pipeline 'cpu-contraction' needs a contraction, "
                            "and '"
                         << root->getName() << "' is none";
  }
  if (pipeline == CPUPipeline::Convolution) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
    if (!linalgOp)
      return emitError() << "pipeline 'cpu-convolution' needs a convolution "
                            "or pooling, and '"
                         << root->getName() << "' is none";
    // A register tile of several groups loops over the filter window
    // itself (MultiGroupConvolution.cpp).
    bool multiGroup =
        getMultiGroupLoop(linalgOp, config.getRegisterTile()).has_value();
    if (multiGroup &&
        failed(verifyMultiGroupTiles(linalgOp, config, emitError)))
      return failure();
    if (!multiGroup && failed(verifyConvolutionTile(
                           linalgOp, config.getRegisterTile(), emitError)))
      return failure();
    // Otherwise a workgroup takes one group or filter panel
    // (dropConvolutionUnitLoop).
    std::optional<ConvolutionUnitLoop> unit =
        multiGroup ? std::nullopt : getConvolutionUnitLoop(linalgOp);
    ArrayRef<int64_t> workgroup = config.getWorkgroupTile();
    if (unit && linalgOp.getStaticLoopRanges()[unit->loop] != 1 &&
        (unit->loop >= workgroup.size() || workgroup[unit->loop] != 1))
      return emitError() << "its workgroup tile "
                         << llvm::interleaved_array(workgroup)
                         << " must be 1 along the " << unit->name() << " loop "
                         << unit->loop << ": a workgroup takes one "
                         << unit->name();
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

/// For a copy that transposes (one input, one output, the body yields the
/// input; the input's innermost dim is not the output's) of 32-bit
/// elements, with 16 lanes, the loops that are the input's and the
/// output's innermost dims, where both are multiples of 16 (or, with
/// `dynamic`, where either is dynamic and neither a static non-multiple).
static std::optional<std::pair<unsigned, unsigned>>
getTransposedLoops(linalg::LinalgOp op, int64_t lanes, bool dynamic = false) {
  if (lanes != 16 || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2)
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || body->getOperations().size() != 1 ||
      yield.getNumOperands() != 1 ||
      yield.getOperand(0) != body->getArgument(0))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() != 32)
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!in.isPermutation() || !out.isPermutation())
    return std::nullopt;
  unsigned inLoop = in.getDimPosition(in.getNumResults() - 1);
  unsigned outLoop = out.getDimPosition(out.getNumResults() - 1);
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  if (inLoop == outLoop)
    return std::nullopt;
  bool anyDynamic = false;
  for (unsigned loop : {inLoop, outLoop}) {
    anyDynamic |= ShapedType::isDynamic(sizes[loop]);
    if (!ShapedType::isDynamic(sizes[loop]) && sizes[loop] % lanes != 0)
      return std::nullopt;
  }
  if (anyDynamic != dynamic)
    return std::nullopt;
  return std::make_pair(inLoop, outLoop);
}

/// The vector-sized tile of an all-parallel op: one vector register's worth
/// of elements (times `unroll`) along the innermost loop, 1 elsewhere. A
/// copy that transposes 32-bit elements by whole 16x16 blocks takes
/// 16x16 tiles: 16 rows read, transposed in registers (vector lowering's
/// 16x16 shuffles), 16 rows written, where tiles along the output's rows
/// alone read a column element by element.
static SmallVector<int64_t> getVectorTile(linalg::LinalgOp op, int64_t lanes,
                                          int64_t unroll) {
  SmallVector<int64_t> sizes = getStaticLoopSizes(op);
  SmallVector<int64_t> tile(sizes.size(), 1);
  if (tile.empty())
    return tile;
  if (std::optional<std::pair<unsigned, unsigned>> loops =
          getTransposedLoops(op, lanes)) {
    tile[loops->first] = lanes;
    tile[loops->second] = lanes;
    return tile;
  }
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

namespace {
struct CPUTileAndVectorizePass
    : public kiln::impl::CPUTileAndVectorizePassBase<CPUTileAndVectorizePass> {
  void runOnOperation() override;

private:
  LogicalResult tileRoot(RewriterBase &rewriter, Operation *root,
                         LoweringConfigAttr config);
  void vectorizeParallelOps(RewriterBase &rewriter, int64_t vectorBits);
  void hoistAccumulators(RewriterBase &rewriter);
};
} // namespace

/// Splits a contraction tile whose N is static, wider than one register
/// panel and not a multiple of it into the whole panels and the rest; the
/// rest (fewer than nr columns) gets a register tile as narrow as it
/// allows (its width rounded up to a power of two) instead of a panel
/// padded to nr: 97^3 computed 128 columns for 97. Returns the ops.
static SmallVector<linalg::LinalgOp>
splitNarrowTail(RewriterBase &rewriter, linalg::LinalgOp op,
                LoweringConfigAttr config) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  if (failed(dims) || dims->n.empty() || dims->n.back() >= registerTile.size())
    return {op};
  unsigned n = dims->n.back();
  int64_t size = op.getStaticLoopRanges()[n];
  int64_t nr = registerTile[n];
  if (ShapedType::isDynamic(size) || nr <= 1 || size <= nr || size % nr == 0)
    return {op};
  int64_t rest = size % nr;
  int64_t tailWidth = llvm::PowerOf2Ceil(rest);
  // A rest that needs the whole panel width gains nothing from a split.
  if (tailWidth >= nr)
    return {op};
  rewriter.setInsertionPoint(op);
  auto [whole, tail] =
      linalg::splitOp(rewriter, cast<TilingInterface>(op.getOperation()), n,
                      rewriter.getIndexAttr(size - rest));
  if (!whole || !tail)
    return {op};
  SmallVector<int64_t> tailRegister(registerTile);
  tailRegister[n] = tailWidth;
  tail->setAttr(KilnDialect::getLoweringConfigAttrName(),
                LoweringConfigAttr::get(op.getContext(), config.getPipeline(),
                                        config.getWorkgroupTile(),
                                        config.getCacheTile(), tailRegister,
                                        tailRegister));
  return {cast<linalg::LinalgOp>(whole.getOperation()),
          cast<linalg::LinalgOp>(tail.getOperation())};
}

/// Tiles the root by its cache tile, then (for contractions, packing B
/// into panels in between) by its register tile, so that the innermost op
/// is one register tile, and vectorizes it.
LogicalResult CPUTileAndVectorizePass::tileRoot(RewriterBase &rewriter,
                                                Operation *root,
                                                LoweringConfigAttr config) {
  bool contraction = getCPUPipeline(config) == CPUPipeline::Contraction;
  auto tilingOp = dyn_cast<TilingInterface>(root);
  if (!tilingOp)
    return success();
  FailureOr<Operation *> tiled =
      tileOp(rewriter, tilingOp, config.getCacheTile());
  if (failed(tiled))
    return root->emitError()
           << "could not be tiled by the cache tile " << config.getCacheTile();
  if (failed(cleanUpTiling(getOperation())))
    return failure();
  // Canonicalization may have replaced the op; the config marks it.
  Operation *current = findConfiguredOp(getOperation());
  if (!current)
    return success();
  if (!contraction &&
      tileReductionIntoVectors(rewriter, getOperation(), current, config))
    return success();
  // Contractions: the rest of N past whole panels split off, and B
  // packed into panels for each part.
  SmallVector<Operation *> parts = {current};
  if (contraction) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(current)) {
      parts.clear();
      for (linalg::LinalgOp part : splitNarrowTail(rewriter, linalgOp, config))
        parts.push_back(part);
    }
    for (Operation *&part : parts) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(part);
      if (!linalgOp)
        continue;
      FailureOr<linalg::LinalgOp> packed =
          packContractionRhs(rewriter, linalgOp,
                             linalgOp->getAttrOfType<LoweringConfigAttr>(
                                 KilnDialect::getLoweringConfigAttrName()));
      if (succeeded(packed))
        part = *packed;
    }
  }
  // Register tiles; partial ones (at the edges of a partial cache tile)
  // are peeled off so that full tiles vectorize without masks, and a
  // contraction's partial rows are split into tiles of 4, 2, 1 rows:
  // masked by rows, a tile of 8 computed all of them (a fifth of 97^3's
  // time went to its one-row remainder).
  for (Operation *part : parts) {
    auto partConfig = part->getAttrOfType<LoweringConfigAttr>(
        KilnDialect::getLoweringConfigAttrName());
    if (!partConfig)
      partConfig = config;
    SmallVector<unsigned> rowDims;
    if (contraction)
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(part))
        if (FailureOr<linalg::ContractionDimensions> dims =
                linalg::inferContractionDims(linalgOp);
            succeeded(dims))
          rowDims.assign(dims->m.begin(), dims->m.end());
    if (failed(tileAndPeel(rewriter, cast<TilingInterface>(part),
                           partConfig.getRegisterTile(), rowDims)))
      return part->emitError() << "could not be tiled by the register tile "
                               << partConfig.getRegisterTile();
  }
  // Each tile by its own config: the parts of a split contraction differ.
  for (Operation *tile : findConfiguredOps(getOperation())) {
    auto tileConfig = tile->getAttrOfType<LoweringConfigAttr>(
        KilnDialect::getLoweringConfigAttrName());
    if (!tileConfig.getEffectiveVectorSizes().empty())
      vectorizeOp(rewriter, tile, tileConfig.getEffectiveVectorSizes(),
                  contraction);
  }
  return success();
}

/// Tiles every remaining all-parallel linalg op into vector-sized pieces
/// and vectorizes them: fills, fused producers and consumers, elementwise
/// roots.
void CPUTileAndVectorizePass::vectorizeParallelOps(RewriterBase &rewriter,
                                                   int64_t vectorBits) {
  SmallVector<linalg::LinalgOp> ops;
  auto collect = [&] {
    ops.clear();
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() &&
          op.getNumLoops() == op.getNumParallelLoops() && op.getNumLoops() > 0)
        ops.push_back(op);
    });
  };
  collect();
  // Along a dynamic loop, whole vector tiles are peeled from the partial
  // last one, so that they vectorize without masks as static ones do; only
  // the partial tiles are masked. A transposing copy takes whole 16x16
  // tiles, transposed in registers (masked 16x16 tiles miscompiled): a
  // 1x1 convolution over a dynamic 320x320 image, 16 > 32 channels,
  // returned NCHW: 27.7 -> 4.8 ms (4.7 static in the same run). Other
  // copies that gather (NHWC to NCHW of 200 channels) read the elements of
  // a masked vector one by one through the stack. Emerald Rapids, one
  // thread.
  bool peeled = false;
  for (linalg::LinalgOp op : ops) {
    // A fill stays whole: it starts a register tile's accumulators, which
    // then stay in registers across the reduction loop (hoistAccumulators).
    if (isa<linalg::FillOp>(op))
      continue;
    int64_t lanes = getLanes(op, vectorBits);
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<int64_t> sizes(op.getNumLoops(), 0);
    if (std::optional<std::pair<unsigned, unsigned>> loops =
            getTransposedLoops(op, lanes, /*dynamic=*/true)) {
      sizes[loops->first] = sizes[loops->second] = lanes;
    } else {
      SmallVector<int64_t> tile = getVectorTile(op, lanes, /*unroll=*/2);
      if (tile.empty() || tile.back() <= 1 ||
          !ShapedType::isDynamic(ranges.back()))
        continue;
      sizes.back() = tile.back();
    }
    // An op that cannot be tiled so is vectorized whole below, masked.
    peeled |= succeeded(
        tileAndPeel(rewriter, cast<TilingInterface>(op.getOperation()), sizes));
  }
  if (peeled) {
    (void)cleanUpTiling(getOperation());
    collect();
  }
  for (linalg::LinalgOp op : ops) {
    SmallVector<int64_t> tileSizes =
        getVectorTile(op, getLanes(op, vectorBits), /*unroll=*/2);
    FailureOr<Operation *> tiled =
        tileOp(rewriter, cast<TilingInterface>(op.getOperation()), tileSizes);
    if (succeeded(tiled))
      vectorizeOp(rewriter, *tiled, tileSizes, /*contraction=*/false);
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
    std::optional<CPUPipeline> pipeline = getCPUPipeline(config);
    if (!pipeline) {
      root->emitError() << "lowering config names pipeline '"
                        << config.getPipeline().getValue()
                        << "', which the llvm-cpu backend does not have (it "
                           "has "
                        << listPipelineNames(getCPUPipelines()) << ")";
      return signalPassFailure();
    }
    if (pipeline == CPUPipeline::Reduction && isRowSoftmax(root)) {
      if (failed(tileAndVectorizeSoftmax(rewriter, func, root, config)))
        return signalPassFailure();
    } else if (pipeline == CPUPipeline::Contraction ||
               pipeline == CPUPipeline::Reduction) {
      if (failed(tileRoot(rewriter, root, config)))
        return signalPassFailure();
    } else if (pipeline == CPUPipeline::Convolution) {
      if (failed(tileAndVectorizeConvolution(rewriter, func, root, config)))
        return signalPassFailure();
    } else if (pipeline == CPUPipeline::Elementwise &&
               !config.getCacheTile().empty()) {
      // Blocks that keep a transpose's reads and writes within a few
      // cache lines and pages; vectors inside them below.
      if (failed(tileOp(rewriter, cast<TilingInterface>(root),
                        config.getCacheTile())))
        return signalPassFailure();
    }
  }
  vectorizeParallelOps(rewriter, vectorBits);
  if (failed(lowerTransferMasks(func)) || failed(cleanUpTiling(func)))
    return signalPassFailure();
  hoistAccumulators(rewriter);
  if (failed(cleanUpTiling(func)))
    return signalPassFailure();
  if (root && getCPUPipeline(config) == CPUPipeline::Convolution &&
      (failed(readPaddedWindows(rewriter, func)) ||
       failed(dropLeadingUnitDims(func))))
    return signalPassFailure();
}
