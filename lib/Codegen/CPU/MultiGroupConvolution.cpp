//===- MultiGroupConvolution.cpp - Several groups in one vector -----------===//
//
// A grouped convolution with fewer output channels per group than a vector
// has lanes (ResNeXt's 32 groups of 4 or 8 channels) wastes most of each
// vector when a workgroup takes one group: 4 of 16 lanes of an AVX-512
// register. Here a register tile takes several groups, their output
// channels side by side in the lanes of one vector, (group, channel). An
// output pixel's input channels of those groups are one contiguous run of
// the NHWGC image, read as one vector; for input channel c, a shuffle of it
// puts group g's channel c under each of g's lanes, and one multiply-add
// with the filter's values for c (group g's row in g's lanes) accumulates
// all the groups at once.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include <map>

using namespace mlir;
using namespace kiln;

namespace {
/// The parts of a grouped convolution over NHWGC images (global
/// optimization's form of one): the operands and loops a multi-group
/// register tile reads.
struct GroupedConvolution {
  OpOperand *image, *filter;
  unsigned group, outputChannel, inputChannel;
  linalg::ConvolutionDimensions dims;
};
} // namespace

/// Whether `map` ends with the dims `loops`, in that order.
static bool endsWithDims(AffineMap map, ArrayRef<unsigned> loops) {
  if (map.getNumResults() < loops.size())
    return false;
  ArrayRef<AffineExpr> tail = map.getResults().take_back(loops.size());
  for (auto [expr, loop] : llvm::zip(tail, loops)) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || dim.getPosition() != loop)
      return false;
  }
  return true;
}

/// Whether the body of `op` is `out + image * filter`, nothing else (no
/// casts: image, filter and result are of one float type).
static bool isMultiplyAdd(linalg::GenericOp op) {
  Block &body = *op.getBlock();
  return body.getOperations().size() == 3 &&
         linalg::detail::isContractionBody(
             body, [](Operation *product, Operation *sum) {
               return isa<arith::MulFOp>(product) && isa<arith::AddFOp>(sum);
             });
}

/// `op` as a grouped convolution a multi-group register tile can take:
/// one group, output-channel and input-channel loop each, two output image
/// and filter loops; the image indexed (..., g, c), the filter (..., g, c,
/// f), the output (..., ow, g, f) with the output width last before them;
/// a multiply-add over one float type.
static std::optional<GroupedConvolution>
matchGroupedConvolution(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1)
    return std::nullopt;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->depth.size() != 1 ||
      dims->outputChannel.size() != 1 || dims->inputChannel.size() != 1 ||
      dims->outputImage.size() != 2 || dims->filterLoop.size() != 2)
    return std::nullopt;
  unsigned g = dims->depth[0], f = dims->outputChannel[0],
           c = dims->inputChannel[0];
  OpOperand *image = nullptr, *filter = nullptr;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (endsWithDims(map, {g, c, f}))
      filter = input;
    else if (endsWithDims(map, {g, c}))
      image = input;
  }
  AffineMap output = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!image || !filter ||
      !endsWithDims(output, {dims->outputImage[1], g, f}) ||
      !isMultiplyAdd(generic))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isa<FloatType>(element) ||
      getElementTypeOrSelf(image->get().getType()) != element ||
      getElementTypeOrSelf(filter->get().getType()) != element)
    return std::nullopt;
  return GroupedConvolution{image, filter, g, f, c, *dims};
}

/// A loop of `op` other than a batch loop whose range is dynamic, if any.
static std::optional<unsigned> getDynamicLoop(linalg::LinalgOp op,
                                              const GroupedConvolution &conv) {
  for (auto [loop, range] : llvm::enumerate(op.getStaticLoopRanges()))
    if (ShapedType::isDynamic(range) &&
        !llvm::is_contained(conv.dims.batch, loop))
      return loop;
  return std::nullopt;
}

std::optional<int64_t> kiln::getGroupsPerVector(linalg::LinalgOp op,
                                                int64_t lanes) {
  std::optional<GroupedConvolution> conv = matchGroupedConvolution(op);
  if (!conv || lanes <= 1)
    return std::nullopt;
  // Every loop but the batch static: a register tile's shape is.
  if (getDynamicLoop(op, *conv))
    return std::nullopt;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t groups = ranges[conv->group], outputs = ranges[conv->outputChannel],
          inputs = ranges[conv->inputChannel];
  if (outputs >= lanes || lanes % outputs != 0)
    return std::nullopt;
  int64_t perVector = lanes / outputs;
  // An image run of at most two vectors, which a shuffle still takes from
  // two registers.
  if (groups % perVector != 0 || perVector * inputs > 2 * lanes)
    return std::nullopt;
  return perVector;
}

std::optional<unsigned>
kiln::getMultiGroupLoop(linalg::LinalgOp op, ArrayRef<int64_t> registerTile) {
  std::optional<GroupedConvolution> conv = matchGroupedConvolution(op);
  if (!conv || conv->group >= registerTile.size() ||
      registerTile[conv->group] <= 1)
    return std::nullopt;
  return conv->group;
}

LogicalResult
kiln::verifyMultiGroupTiles(linalg::LinalgOp op, LoweringConfigAttr config,
                            function_ref<InFlightDiagnostic()> emitError) {
  // getMultiGroupLoop matched it.
  std::optional<GroupedConvolution> conv = matchGroupedConvolution(op);
  assert(conv && "not a grouped convolution of several groups to a tile");
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // Register tiles of a static shape: every loop but the batch static.
  if (std::optional<unsigned> loop = getDynamicLoop(op, *conv))
    return emitError() << "its register tile takes several groups: loop "
                       << *loop
                       << " must be static (only a batch may be dynamic)";
  ArrayRef<int64_t> workgroup = config.getWorkgroupTile(),
                    cache = config.getCacheTile(),
                    registerTile = config.getRegisterTile();
  auto at = [](ArrayRef<int64_t> tile, unsigned loop) {
    return loop < tile.size() ? tile[loop] : 0;
  };
  unsigned g = conv->group;
  int64_t groups = at(registerTile, g);
  // An empty cache tile: none.
  bool cached = !cache.empty();
  if (at(workgroup, g) != groups || (cached && at(cache, g) != groups) ||
      ranges[g] % groups != 0)
    return emitError() << "its register tile takes " << groups
                       << " groups (loop " << g
                       << "): its workgroup and cache tiles must take as "
                          "many, a divisor of the "
                       << ranges[g] << " groups";
  // The lanes are (group, output channel): every channel of a group.
  unsigned f = conv->outputChannel;
  if (at(workgroup, f) != ranges[f] || (cached && at(cache, f) != ranges[f]) ||
      at(registerTile, f) != ranges[f])
    return emitError() << "its register tile takes several groups: its "
                          "workgroup, cache and register tiles must take "
                          "every output channel of a group (loop "
                       << f << ")";
  // One output row and image of the batch; the filter window and input
  // channels whole (the tile loops over them itself).
  for (unsigned loop : llvm::concat<const unsigned>(
           conv->dims.batch, ArrayRef(conv->dims.outputImage[0])))
    if (at(registerTile, loop) != 1)
      return emitError() << "its register tile takes several groups: it "
                            "must be 1 along loop "
                         << loop << " (a batch or output row loop)";
  for (unsigned loop : llvm::concat<const unsigned>(
           conv->dims.filterLoop, ArrayRef(conv->inputChannel)))
    if (at(registerTile, loop) != 0 && at(registerTile, loop) != ranges[loop])
      return emitError() << "its register tile takes several groups: it "
                            "must take all of loop "
                         << loop << " (0), a filter or input-channel loop";
  return success();
}

/// The index of each result of `map` (over the loops of a tile) at the
/// point `loops` (values or constants per loop).
static SmallVector<Value> evaluate(RewriterBase &rewriter, Location loc,
                                   AffineMap map,
                                   ArrayRef<OpFoldResult> loops) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(getValueOrCreateConstantIndexOp(
        rewriter, loc,
        affine::makeComposedFoldedAffineApply(
            rewriter, loc, AffineMap::get(map.getNumDims(), 0, expr), loops)));
  return indices;
}

LogicalResult kiln::vectorizeMultiGroupConvolution(RewriterBase &rewriter,
                                                   linalg::LinalgOp op) {
  std::optional<GroupedConvolution> conv = matchGroupedConvolution(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!conv || !op.hasPureTensorSemantics() ||
      ShapedType::isDynamicShape(ranges))
    return op->emitError() << "a register tile of several groups must be a "
                              "static grouped convolution";
  const linalg::ConvolutionDimensions &dims = conv->dims;
  for (unsigned loop :
       llvm::concat<const unsigned>(dims.batch, ArrayRef(dims.outputImage[0])))
    if (ranges[loop] != 1)
      return op->emitError() << "a register tile of several groups must take "
                                "one output row of one image";
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  unsigned numLoops = op.getNumLoops();
  unsigned width = dims.outputImage[1];
  unsigned rowLoop = dims.filterLoop[0], columnLoop = dims.filterLoop[1];
  int64_t pixels = ranges[width], groups = ranges[conv->group],
          outputs = ranges[conv->outputChannel],
          inputs = ranges[conv->inputChannel];
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  auto laneType = VectorType::get({groups * outputs}, element);
  auto accType = VectorType::get({pixels, groups * outputs}, element);
  rewriter.setInsertionPoint(op);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value padding = arith::ConstantOp::create(rewriter, loc, element,
                                            rewriter.getZeroAttr(element));

  // The accumulators: the output tile as one vector per pixel of all its
  // groups' channels (ow, g and f are the output's last dims; the others
  // are 1). Read and written whole, as the fill before it and the
  // epilogue after it write and read it.
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  auto tileType = VectorType::get(initType.getShape(), element);
  SmallVector<Value> initIndices(initType.getRank(), zero);
  SmallVector<bool> inBounds(initType.getRank(), true);
  Value tile = vector::TransferReadOp::create(
      rewriter, loc, tileType, init, initIndices, padding,
      AffineMap::getMultiDimIdentityMap(initType.getRank(), context), inBounds);
  Value acc = vector::ShapeCastOp::create(rewriter, loc, accType, tile);

  // The image with each pixel's groups and channels one dim, so that a
  // pixel's run of them is one read.
  auto imageType = cast<RankedTensorType>(conv->image->get().getType());
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t i = 0, e = imageType.getRank() - 2; i < e; ++i)
    reassociation.push_back({i});
  reassociation.push_back({imageType.getRank() - 2, imageType.getRank() - 1});
  Value image = tensor::CollapseShapeOp::create(
      rewriter, loc, conv->image->get(), reassociation);
  AffineMap imageMap = op.getMatchingIndexingMap(conv->image);
  AffineMap filterMap = op.getMatchingIndexingMap(conv->filter);
  auto filterType = cast<RankedTensorType>(conv->filter->get().getType());
  int64_t filterRank = filterType.getRank();
  // The filter's values for one input channel: (group, output channel).
  AffineMap filterRead =
      AffineMap::get(filterRank, 0,
                     {getAffineDimExpr(filterRank - 3, context),
                      getAffineDimExpr(filterRank - 1, context)},
                     context);
  auto filterVectorType = VectorType::get({groups, outputs}, element);
  // Shuffle c: lane (g, f) takes group g's input channel c.
  auto lanesOfChannel = [&](int64_t c) {
    SmallVector<int64_t> mask;
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t f = 0; f < outputs; ++f)
        mask.push_back(g * inputs + c);
    return mask;
  };

  // A loop over the filter's rows; its columns unrolled, so that an image
  // pixel's run, and each shuffle of it, serves every tap that reads it
  // (three output pixels of a 3x3 window at stride 1).
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value filterRows =
      arith::ConstantIndexOp::create(rewriter, loc, ranges[rowLoop]);
  // One loop-carried vector per pixel (a carried 2-D vector would be taken
  // apart and rebuilt element by element on every trip).
  SmallVector<Value> initialSums;
  for (int64_t pixel = 0; pixel < pixels; ++pixel)
    initialSums.push_back(vector::ExtractOp::create(rewriter, loc, acc,
                                                    ArrayRef<int64_t>{pixel}));
  auto rows =
      scf::ForOp::create(rewriter, loc, zero, filterRows, one, initialSums);
  rewriter.setInsertionPointToStart(rows.getBody());
  // The point of the loops at this filter row, column `column`, output
  // pixel `pixel`, input channel `inputChannel`, the tile's first group.
  auto point = [&](int64_t column, int64_t pixel, int64_t inputChannel,
                   bool constantRow) {
    SmallVector<OpFoldResult> loops(numLoops, rewriter.getIndexAttr(0));
    if (!constantRow)
      loops[rowLoop] = rows.getInductionVar();
    loops[columnLoop] = rewriter.getIndexAttr(column);
    loops[width] = rewriter.getIndexAttr(pixel);
    loops[conv->inputChannel] = rewriter.getIndexAttr(inputChannel);
    return loops;
  };
  // The image runs the taps read, each once: keyed by its position at
  // filter row 0 (the row moves every tap's run alike).
  struct Tap {
    int64_t column, pixel;
  };
  SmallVector<Value> runs;
  SmallVector<SmallVector<Tap>> tapsOfRun;
  std::map<SmallVector<int64_t>, unsigned> runAt;
  auto runType = VectorType::get({groups * inputs}, element);
  for (int64_t column = 0; column < ranges[columnLoop]; ++column) {
    for (int64_t pixel = 0; pixel < pixels; ++pixel) {
      SmallVector<int64_t> key;
      for (OpFoldResult index : point(column, pixel, 0, /*constantRow=*/true))
        key.push_back(*getConstantIntValue(index));
      key = imageMap.compose(key);
      auto [it, inserted] = runAt.try_emplace(key, runs.size());
      if (inserted) {
        SmallVector<Value> indices =
            evaluate(rewriter, loc, imageMap, point(column, pixel, 0, false));
        // The group's index is the collapsed dim's (its channel is 0).
        indices.pop_back();
        runs.push_back(vector::TransferReadOp::create(
            rewriter, loc, runType, image, indices, padding,
            AffineMap::getMinorIdentityMap(indices.size(), 1, context),
            ArrayRef<bool>{true}));
        tapsOfRun.emplace_back();
      }
      tapsOfRun[it->second].push_back(Tap{column, pixel});
    }
  }
  SmallVector<Value> sums(rows.getRegionIterArgs());
  for (int64_t c = 0; c < inputs; ++c) {
    SmallVector<Value> weights;
    for (int64_t column = 0; column < ranges[columnLoop]; ++column) {
      Value read = vector::TransferReadOp::create(
          rewriter, loc, filterVectorType, conv->filter->get(),
          evaluate(rewriter, loc, filterMap, point(column, 0, c, false)),
          padding, filterRead, ArrayRef<bool>{true, true});
      weights.push_back(
          vector::ShapeCastOp::create(rewriter, loc, laneType, read));
    }
    SmallVector<int64_t> mask = lanesOfChannel(c);
    for (auto [run, taps] : llvm::zip(runs, tapsOfRun)) {
      Value x = vector::ShuffleOp::create(rewriter, loc, run, run, mask);
      for (Tap tap : taps)
        sums[tap.pixel] = vector::FMAOp::create(
            rewriter, loc, x, weights[tap.column], sums[tap.pixel]);
    }
  }
  scf::YieldOp::create(rewriter, loc, sums);
  rewriter.setInsertionPointAfter(rows);

  Value sum = acc;
  for (int64_t pixel = 0; pixel < pixels; ++pixel)
    sum = vector::InsertOp::create(rewriter, loc, rows.getResult(pixel), sum,
                                   ArrayRef<int64_t>{pixel});
  Value result = vector::ShapeCastOp::create(rewriter, loc, tileType, sum);
  Value written =
      vector::TransferWriteOp::create(
          rewriter, loc, result, init, initIndices,
          AffineMap::getMultiDimIdentityMap(initType.getRank(), context),
          inBounds)
          .getResult();
  rewriter.replaceOp(op, written);
  return success();
}
