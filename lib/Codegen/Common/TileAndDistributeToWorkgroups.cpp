//===- TileAndDistributeToWorkgroups.cpp - Split kernels into workgroups --===//
//
// Tiles the op producing a kernel's output by the workgroup tile of the
// dispatch's lowering config, fuses its producers into the tile, runs the
// tiles in a loop the workgroups share, and computes the workgroup count in
// the export from the workload.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Codegen/Common/Utils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace kiln {
#define GEN_PASS_DEF_TILEANDDISTRIBUTETOWORKGROUPSPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The op whose result a kernel writes last to an output binding: the end
/// of the dispatch's chain of fused ops.
static TilingInterface findDistributionOp(FunctionOpInterface func) {
  Operation *last = nullptr;
  func.walk([&](bufferization::MaterializeInDestinationOp store) {
    Operation *producer = store.getSource().getDefiningOp();
    if (producer && (!last || last->isBeforeInBlock(producer)))
      last = producer;
  });
  return dyn_cast_or_null<TilingInterface>(last);
}

namespace {
/// Generates the loop the workgroups share:
///   scf.for %t = %id to %tileCount step %count iter_args(...)
/// with `%t` delinearized into the tile's position along each tiled loop.
struct WorkgroupLoopBuilder {
  FailureOr<scf::SCFTilingOptions::CustomLoopHeaderInfo>
  buildHeader(RewriterBase &rewriter, Location loc, ArrayRef<Range> ranges,
              ArrayRef<OpFoldResult> tileSizes, ValueRange destinations) {
    SmallVector<OpFoldResult> tileCounts;
    for (auto [range, tile] : llvm::zip_equal(ranges, tileSizes)) {
      if (isZeroInteger(tile))
        continue;
      AffineExpr size, step;
      bindSymbols(rewriter.getContext(), size, step);
      tileCounts.push_back(affine::makeComposedFoldedAffineApply(
          rewriter, loc, size.ceilDiv(step), {range.size, tile}));
    }
    Value total = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (OpFoldResult count : tileCounts)
      total = arith::MulIOp::create(
          rewriter, loc, total,
          getValueOrCreateConstantIndexOp(rewriter, loc, count));
    Value id = WorkgroupIdOp::create(rewriter, loc, rewriter.getIndexType(),
                                     /*dimension=*/0);
    Value count = WorkgroupCountOp::create(
        rewriter, loc, rewriter.getIndexType(), /*dimension=*/0);
    auto loop =
        scf::ForOp::create(rewriter, loc, id, total, count, destinations);
    rewriter.setInsertionPointToStart(loop.getBody());

    SmallVector<Value> positions;
    if (tileCounts.size() == 1) {
      positions.push_back(loop.getInductionVar());
    } else if (!tileCounts.empty()) {
      auto delinearized = affine::AffineDelinearizeIndexOp::create(
          rewriter, loc, loop.getInductionVar(), tileCounts);
      llvm::append_range(positions, delinearized.getResults());
    }

    scf::SCFTilingOptions::CustomLoopHeaderInfo info;
    info.loops.push_back(loop);
    unsigned tiled = 0;
    for (auto [range, tile] : llvm::zip_equal(ranges, tileSizes)) {
      if (isZeroInteger(tile)) {
        info.tileOffset.push_back(range.offset);
        info.tileSizes.push_back(range.size);
        continue;
      }
      AffineExpr offset, position, step, size;
      bindSymbols(rewriter.getContext(), offset, position, step, size);
      OpFoldResult tileOffset = affine::makeComposedFoldedAffineApply(
          rewriter, loc, offset + position * step,
          {range.offset, positions[tiled++], tile});
      // The last tile may be partial, unless the tile divides the range:
      // a tile of 1 always does (every position is inside the range), and
      // stays static where the range is dynamic (a workgroup of one image
      // row of any height).
      std::optional<int64_t> staticSize = getConstantIntValue(range.size);
      std::optional<int64_t> staticTile = getConstantIntValue(tile);
      OpFoldResult tileSize = tile;
      if (staticTile != 1 &&
          (!staticSize || !staticTile || *staticSize % *staticTile != 0)) {
        AffineExpr begin, end, stepExpr, first;
        bindSymbols(rewriter.getContext(), begin, end, stepExpr, first);
        AffineMap minMap = AffineMap::get(0, 4, {stepExpr, begin + end - first},
                                          rewriter.getContext());
        tileSize = affine::makeComposedFoldedAffineMin(
            rewriter, loc, minMap,
            {range.offset, range.size, tile, tileOffset});
      }
      info.tileOffset.push_back(tileOffset);
      info.tileSizes.push_back(tileSize);
    }
    llvm::append_range(info.destinationTensors, loop.getRegionIterArgs());
    return info;
  }

  LogicalResult buildTerminator(RewriterBase &rewriter, Location loc,
                                ArrayRef<LoopLikeOpInterface> loops,
                                ValueRange tiledResults,
                                ArrayRef<SmallVector<OpFoldResult>> offsets,
                                ArrayRef<SmallVector<OpFoldResult>> sizes,
                                ValueRange destinations) {
    auto loop = cast<scf::ForOp>(LoopLikeOpInterface(loops.front()));
    rewriter.setInsertionPointToEnd(loop.getBody());
    SmallVector<Value> yielded;
    for (auto [tile, tileOffsets, tileSizes, destination] :
         llvm::zip_equal(tiledResults, offsets, sizes, destinations)) {
      SmallVector<OpFoldResult> strides(tileOffsets.size(),
                                        rewriter.getIndexAttr(1));
      yielded.push_back(tensor::InsertSliceOp::create(
          rewriter, loc, tile, destination, tileOffsets, tileSizes, strides));
    }
    scf::YieldOp::create(rewriter, loc, yielded);
    return success();
  }
};
} // namespace

/// Replaces the export's kiln.workgroup_count_from_workload with the number
/// of workgroup tiles: the product over tiled parallel loops of the root of
/// ceildiv(size, tile), where a loop's size is its static extent or else the
/// workload value the host passes for it. Without tiles the count is one.
static LogicalResult resolveWorkgroupCount(ExecutableExportOp exportOp,
                                           Operation *root,
                                           ArrayRef<int64_t> rootTiles) {
  WorkgroupCountFromWorkloadOp placeholder;
  exportOp.walk([&](WorkgroupCountFromWorkloadOp op) { placeholder = op; });
  if (!placeholder)
    return success();
  IRRewriter rewriter(placeholder);
  Location loc = placeholder.getLoc();
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value total = one;
  if (root && !rootTiles.empty()) {
    SmallVector<int64_t> staticRanges;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(root))
      staticRanges = linalgOp.getStaticLoopRanges();
    auto tiling = cast<TilingInterface>(root);
    unsigned workloadIndex = 0;
    for (auto [loop, type] : llvm::enumerate(tiling.getLoopIteratorTypes())) {
      if (type != utils::IteratorType::parallel)
        continue;
      unsigned index = workloadIndex++;
      if (rootTiles[loop] == 0)
        continue;
      Value tiles;
      if (loop < staticRanges.size() &&
          !ShapedType::isDynamic(staticRanges[loop])) {
        tiles = arith::ConstantIndexOp::create(
            rewriter, loc,
            llvm::divideCeil(staticRanges[loop], rootTiles[loop]));
      } else if (index < placeholder.getWorkload().size()) {
        Value tile =
            arith::ConstantIndexOp::create(rewriter, loc, rootTiles[loop]);
        tiles = arith::CeilDivUIOp::create(
            rewriter, loc, placeholder.getWorkload()[index], tile);
      } else {
        return exportOp.emitError()
               << "has a workload of " << placeholder.getWorkload().size()
               << " values, but parallel loop #" << loop << " of "
               << root->getName() << " is dynamic and needs workload value #"
               << index;
      }
      total = total == one ? tiles
                           : arith::MulIOp::create(rewriter, loc, total, tiles);
    }
  }
  rewriter.replaceOp(placeholder, {total, one, one});
  return success();
}

/// True when `value` holds no data the kernel needs: an empty tensor, or
/// one filled with a constant (which tiling fuses).
static bool isFreshTensor(Value value) {
  Operation *producer = value.getDefiningOp();
  if (isa_and_nonnull<tensor::EmptyOp>(producer))
    return true;
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(producer))
    return isFreshTensor(fill.getOutputs().front());
  return false;
}

/// The loop over workgroup tiles carries the op's destinations, and each
/// workgroup would copy a destination with contents (an accumulator read
/// from an input binding) whole, over the tiles others wrote. Such a
/// destination becomes a copy into an empty tensor, which fuses into each
/// tile: every workgroup copies its own part.
static void separateDestinations(RewriterBase &rewriter, TilingInterface op) {
  auto dps = dyn_cast<DestinationStyleOpInterface>(op.getOperation());
  if (!dps)
    return;
  for (OpOperand &init : dps.getDpsInitsMutable()) {
    Value value = init.get();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || isFreshTensor(value))
      continue;
    rewriter.setInsertionPoint(op);
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, value);
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    Value copy =
        linalg::CopyOp::create(rewriter, loc, value, empty).getResult(0);
    rewriter.modifyOpInPlace(op, [&] { init.set(copy); });
  }
}

/// Distributes the kernel `func` of `exportOp`.
static LogicalResult distribute(ExecutableExportOp exportOp,
                                FunctionOpInterface func) {
  auto [root, config] = getRootOpAndConfig(func);
  SmallVector<int64_t> rootTiles;
  if (config && isa<TilingInterface>(root)) {
    rootTiles.assign(config.getWorkgroupTile().begin(),
                     config.getWorkgroupTile().end());
    // Reductions are never split across workgroups.
    for (auto [loop, type] :
         llvm::enumerate(cast<TilingInterface>(root).getLoopIteratorTypes()))
      if (loop < rootTiles.size() && type != utils::IteratorType::parallel)
        rootTiles[loop] = 0;
  }

  TilingInterface distributionOp = findDistributionOp(func);
  std::optional<SmallVector<int64_t>> tiles;
  if (distributionOp && !rootTiles.empty() &&
      llvm::any_of(rootTiles, [](int64_t t) { return t > 0; }))
    tiles = getLoopTiles(distributionOp, root, rootTiles);
  if (!tiles) {
    // One workgroup runs the whole dispatch.
    return resolveWorkgroupCount(exportOp, nullptr, {});
  }

  IRRewriter rewriter(func.getContext());
  separateDestinations(rewriter, distributionOp);
  rewriter.setInsertionPoint(distributionOp);
  WorkgroupLoopBuilder loopBuilder;
  scf::SCFTilingOptions tilingOptions;
  SmallVector<OpFoldResult> tileSizes =
      llvm::map_to_vector(*tiles, [&](int64_t t) -> OpFoldResult {
        return rewriter.getIndexAttr(t);
      });
  tilingOptions.setTileSizes(tileSizes);
  tilingOptions.setLoopType(scf::SCFTilingOptions::LoopType::CustomOp);
  tilingOptions.setCustomLoopGenerationFns(
      [&](RewriterBase &rewriter, Location loc, ArrayRef<Range> ranges,
          ArrayRef<OpFoldResult> sizes, ValueRange destinations) {
        return loopBuilder.buildHeader(rewriter, loc, ranges, sizes,
                                       destinations);
      },
      [&](RewriterBase &rewriter, Location loc,
          ArrayRef<LoopLikeOpInterface> loops, ValueRange results,
          ArrayRef<SmallVector<OpFoldResult>> offsets,
          ArrayRef<SmallVector<OpFoldResult>> sizes, ValueRange destinations) {
        return loopBuilder.buildTerminator(rewriter, loc, loops, results,
                                           offsets, sizes, destinations);
      });

  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tilingOptions);
  // Fuse every producer; keep a value computed in the loop when another
  // output binding stores it too.
  options.setFusionControlFn(
      [](tensor::ExtractSliceOp, OpResult producer,
         bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        bool stored = llvm::any_of(producer.getUsers(), [](Operation *user) {
          return isa<bufferization::MaterializeInDestinationOp>(user);
        });
        return scf::SCFTileAndFuseOptions::ControlFnResult{stored};
      });

  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, distributionOp,
                                                options);
  if (failed(result))
    return distributionOp->emitError()
           << "could not be tiled into workgroups of " << *tiles;
  // Only uses after the loop see its results: the ops it replaces (and
  // the clones inside it) still read the originals until they are erased.
  DominanceInfo dominance(func);
  Operation *loop = result->loops.front();
  for (auto [original, replacement] : result->replacements)
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return dominance.properlyDominates(loop, use.getOwner(),
                                         /*enclosingOpOk=*/false);
    });
  return resolveWorkgroupCount(exportOp, root, rootTiles);
}

namespace {
struct TileAndDistributeToWorkgroupsPass
    : public kiln::impl::TileAndDistributeToWorkgroupsPassBase<
          TileAndDistributeToWorkgroupsPass> {
  void runOnOperation() override {
    ExecutableVariantOp variant = getOperation();
    ModuleOp module = variant.getInnerModule();
    if (!module)
      return;
    for (auto exportOp : variant.getExportOps()) {
      auto func = dyn_cast_or_null<FunctionOpInterface>(
          SymbolTable::lookupSymbolIn(module, exportOp.getSymNameAttr()));
      if (!func || func.isExternal())
        continue;
      if (failed(distribute(exportOp, func)))
        return signalPassFailure();
    }
  }
};
} // namespace
