//===- SelectLoweringConfig.cpp - Heuristic lowering configs for CPUs -----===//
//
// Attaches a #kiln.lowering_config to every dispatch root that has none
// (no tuning spec configured it), from the CPU's vector width, vector
// register count and cache sizes, and records that a heuristic did.
//
//===----------------------------------------------------------------------===//

#include "LoweringConfigUtils.h"
#include "TilingUtils.h"
#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "kiln/Dialect/Kiln/Utils/RootOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_CPUSELECTLOWERINGCONFIGPASS
#include "kiln/Codegen/CPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Workgroup tiles for the parallel loops of an op whose work per element
/// is small: about `target` elements per workgroup, the innermost loop
/// tiled widest, at least `minTiles` workgroups when the op is big enough.
static SmallVector<int64_t>
getParallelWorkgroupTiles(ArrayRef<int64_t> sizes,
                          ArrayRef<utils::IteratorType> types, int64_t lanes,
                          int64_t target) {
  SmallVector<int64_t> tiles(sizes.size(), 0);
  int64_t remaining = target;
  for (int64_t loop = sizes.size() - 1; loop >= 0; --loop) {
    if (types[loop] != utils::IteratorType::parallel)
      continue;
    int64_t tile = std::max<int64_t>(1, std::min(sizes[loop], remaining));
    if (loop == static_cast<int64_t>(sizes.size()) - 1 && tile < sizes[loop])
      tile = std::max(lanes, tile / lanes * lanes);
    tiles[loop] = tile;
    remaining = std::max<int64_t>(1, remaining / tile);
  }
  // Split the outermost tiled loop further while there are fewer than eight
  // workgroups, so every core gets work.
  auto count = [&] {
    int64_t total = 1;
    for (auto [size, tile] : llvm::zip_equal(sizes, tiles))
      if (tile)
        total *= llvm::divideCeil(size, tile);
    return total;
  };
  for (int64_t loop = 0; loop < static_cast<int64_t>(sizes.size()); ++loop) {
    while (
        tiles[loop] > 1 && count() < 8 &&
        (loop != static_cast<int64_t>(sizes.size()) - 1 || tiles[loop] > lanes))
      tiles[loop] = llvm::divideCeil(tiles[loop], 2);
  }
  return tiles;
}

/// The loop that picks a panel of B when B is laid out in panels of `nr`
/// columns (kiln-pack-contraction-weights): an input indexed (panel, k,
/// n), n the innermost parallel loop `n` of the contraction with `nr`
/// iterations, the panel loop another of its parallel loops.
static std::optional<unsigned>
getPanelLoop(linalg::LinalgOp op, const linalg::ContractionDimensions &dims,
             unsigned n, int64_t nr) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  if (sizes[n] != nr)
    return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (map.getNumResults() != 3 || !map.isProjectedPermutation() ||
        map.getDimPosition(2) != n)
      continue;
    unsigned panel = map.getDimPosition(0);
    if (llvm::is_contained(dims.n, panel) &&
        llvm::is_contained(dims.k, map.getDimPosition(1)))
      return panel;
  }
  return std::nullopt;
}

/// Matmul-like ops: a register tile of `mr` x `nr` accumulators held in
/// vector registers, cache tiles of B (kc x nc) that fit in L2, and
/// workgroup tiles of M x nc.
static LoweringConfigAttr configureContraction(linalg::LinalgOp op,
                                               const CPUTargetInfo &cpu) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return {};
  SmallVector<int64_t> sizes = getLoopSizes(cast<TilingInterface>(*op));
  int64_t elementBytes = std::max<unsigned>(8, getElementBits(op)) / 8;
  int64_t lanes = cpu.lanes(getElementBits(op));
  unsigned m = dims->m.back(), n = dims->n.back(), k = dims->k.back();
  // Two vectors of N per row, as many rows as registers allow while
  // leaving room for the B vectors and a broadcast. Where N fits one
  // vector, one: a second would compute padding (12544x16x32 with a bias
  // and ReLU, Zen 5: 0.183 ms with 8x32 tiles, 0.087 with 8x16).
  int64_t nr = sizes[n] <= lanes ? lanes : 2 * lanes;
  int64_t mr = cpu.vectorRegisters >= 32 ? 8 : 6;
  // The columns of a kc-deep block of B that fill `bytes`, in whole
  // register tiles.
  auto columnsIn = [&](int64_t bytes, int64_t kc) {
    return std::max<int64_t>(nr, bytes / (kc * elementBytes) / nr * nr);
  };
  // kc x nc of B in about half of L2.
  int64_t kc = std::min<int64_t>(sizes[k], 256);
  int64_t nc = std::min<int64_t>(
      clampTile(sizes[n], nr, columnsIn(cpu.l2Bytes / 2, kc)), 256);
  // Row tiles of 64 rows; in large products, as even as whole register
  // tiles allow: 196 rows in tiles of 64 left one of 4, and two threads
  // took 128 and 68 rows (196x256x2304 scaled 1.48x); in tiles of 56 (the
  // last 28) they take 112 and 84, 0.915 -> 0.804 ms on two threads. In
  // small ones a thread joins a few microseconds after the caller starts,
  // and a lighter last tile is what it should get: 97^3 in 56 and 41 rows
  // took 0.0105 ms on two threads, in 64 and 33 0.0090 (Zen 5 VM,
  // 2026-11-24).
  constexpr int64_t kMaxRowTile = 64;
  constexpr uint64_t kMinEvenRowsMacs = uint64_t(1) << 25;
  int64_t mc = clampTile(sizes[m], mr, kMaxRowTile);
  // Every loop's iterations: B in panels splits N over two loops, and a
  // batch of one leaves the work as it is.
  uint64_t macs = 1;
  for (int64_t size : sizes)
    macs = llvm::SaturatingMultiply<uint64_t>(
        macs, static_cast<uint64_t>(std::max<int64_t>(size, 1)));
  // As many row tiles as 64-row ones, not as tiles of the largest whole
  // number of register tiles under 64 (60 rows for AVX2's 6): each row
  // tile streams all of B once, and where B dwarfs A that is the cost. On
  // a Zen 3 (AVX2), one thread, 64x4096x4096 split 36 + 28 ran at 33
  // GFLOP/s, whole at 53; 128x3072x768 in 48-row tiles at 48, in 64-row
  // ones at 57 (2026-11-26).
  if (macs >= kMinEvenRowsMacs) {
    int64_t rowTiles = llvm::divideCeil(sizes[m], kMaxRowTile);
    mc = std::min<int64_t>(
        sizes[m], llvm::alignTo(llvm::divideCeil(sizes[m], rowTiles), mr));
  }
  // Large problems: a B block twice as deep and half as wide (a quarter
  // of L2) reused by 256 rows of A, so each packed block feeds four times
  // the work. On a Zen 5 (1 MiB L2), one thread: 2048^3 181 GFLOP/s
  // against 135, 1000^3 171 against 142 (see the znver5 default spec).
  constexpr int64_t kLarge = 512;
  if (sizes[m] >= kLarge && sizes[n] >= kLarge && sizes[k] >= kLarge &&
      cpu.l2Bytes >= 1024 * 1024) {
    kc = 512;
    nc = std::min<int64_t>(columnsIn(cpu.l2Bytes / 4, kc), 256);
    mc = 256;
  }

  // B laid out in panels at compile time (kiln-pack-contraction-weights):
  // its loop n is the column within a panel as wide as the register tile,
  // and an outer parallel loop picks the panel. A workgroup takes four
  // panels; deeper K blocks, as no packing at run time bounds them. On a
  // Zen 3 (AVX2), one thread, 128x768x3072 against a packed B ran at 65-88
  // GFLOP/s over mc in {66, 128}, 1-8 panels and kc in {256, 512, 768},
  // the noise larger than the differences, against 52 with B packed at run
  // time (2026-11-26).
  std::optional<unsigned> panelLoop = getPanelLoop(op, *dims, n, nr);
  if (panelLoop) {
    kc = std::min<int64_t>(sizes[k], 512);
    nc = nr;
  }

  unsigned numLoops = op.getNumLoops();
  SmallVector<int64_t> workgroup(numLoops, 0), cache(numLoops, 0),
      registerTile(numLoops, 0);
  for (unsigned loop :
       llvm::concat<const unsigned>(dims->batch, dims->m, dims->n)) {
    workgroup[loop] = 1;
    cache[loop] = 1;
    registerTile[loop] = 1;
  }
  for (unsigned loop : dims->k) {
    cache[loop] = 1;
    registerTile[loop] = 1;
  }
  workgroup[m] = mc;
  workgroup[n] = nc;
  cache[m] = mc;
  cache[n] = nc;
  cache[k] = kc;
  registerTile[m] = std::min(mr, mc);
  registerTile[n] = std::min(nr, nc);
  registerTile[k] = 1;
  if (panelLoop) {
    workgroup[*panelLoop] = cache[*panelLoop] =
        std::min<int64_t>(sizes[*panelLoop], 4);
  }
  return getConfig(op.getContext(), CPUPipeline::Contraction, workgroup, cache,
                   registerTile, registerTile);
}

/// The loop along which an input of an all-parallel op is contiguous when
/// its result is contiguous along another one (a transpose): the input
/// depends on the innermost loop, but not innermost. None otherwise.
static std::optional<int64_t> getTransposedLoop(linalg::LinalgOp op) {
  int64_t innermost = op.getNumLoops() - 1;
  auto innermostOf = [](AffineMap map) -> std::optional<int64_t> {
    if (map.getNumResults() == 0)
      return std::nullopt;
    if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
      return dim.getPosition();
    return std::nullopt;
  };
  for (OpOperand &init : op.getDpsInitsMutable())
    if (innermostOf(op.getMatchingIndexingMap(&init)) != innermost)
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    std::optional<int64_t> loop = innermostOf(map);
    if (loop && *loop != innermost &&
        map.isFunctionOfDim(static_cast<unsigned>(innermost)))
      return loop;
  }
  return std::nullopt;
}

/// All-parallel ops: one vector along the innermost loop per step. A
/// transpose works in blocks of a vector's lanes square (the cache tile),
/// so that a block's reads and writes each touch that many cache lines:
/// along the result's rows, a vector would read a page per element.
static LoweringConfigAttr configureElementwise(TilingInterface op,
                                               const CPUTargetInfo &cpu) {
  SmallVector<int64_t> sizes = getLoopSizes(op);
  auto types = op.getLoopIteratorTypes();
  int64_t lanes = cpu.lanes(getElementBits(op));
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation());
  std::optional<int64_t> transposed =
      linalgOp ? getTransposedLoop(linalgOp) : std::nullopt;
  if (transposed && !sizes.empty()) {
    int64_t innermost = sizes.size() - 1;
    SmallVector<int64_t> workgroup(sizes.size(), 1), block(sizes.size(), 1);
    workgroup[innermost] = std::min(sizes[innermost], 16 * lanes);
    workgroup[*transposed] = std::min(
        sizes[*transposed],
        std::max(lanes, 16 * 1024 / workgroup[innermost] / lanes * lanes));
    block[innermost] = block[*transposed] = lanes;
    SmallVector<int64_t> registerTile(sizes.size(), 1);
    registerTile.back() = std::min(lanes, sizes.back());
    return getConfig(op->getContext(), CPUPipeline::Elementwise, workgroup,
                     block, registerTile, registerTile);
  }
  SmallVector<int64_t> workgroup =
      getParallelWorkgroupTiles(sizes, types, lanes, 16 * 1024);
  SmallVector<int64_t> registerTile(sizes.size(), 1);
  if (!sizes.empty())
    registerTile.back() = std::min(lanes, workgroup.back());
  return getConfig(op->getContext(), CPUPipeline::Elementwise, workgroup, {},
                   registerTile, registerTile);
}

/// Reductions: whole reductions per workgroup; vectors along the innermost
/// loop, reduced at the end when it is a reduction loop.
static LoweringConfigAttr configureReduction(TilingInterface op,
                                             const CPUTargetInfo &cpu) {
  SmallVector<int64_t> sizes = getLoopSizes(op);
  auto types = op.getLoopIteratorTypes();
  int64_t lanes = cpu.lanes(getElementBits(op));
  int64_t reductionSize = 1;
  for (auto [size, type] : llvm::zip_equal(sizes, types))
    if (type == utils::IteratorType::reduction)
      reductionSize *= size;
  int64_t target =
      std::max<int64_t>(1, 16 * 1024 / std::max<int64_t>(1, reductionSize));
  // A reduction of a size known only at run time (a global pooling over
  // an image of any size) is taken as large above: one workgroup per row
  // reduced, hundreds of workgroups each reducing a few hundred elements
  // of PP-OCR's direction classifier. Its work per row unknown, the rows
  // of the loops of known size are shared among eight workgroups, the
  // count that keeps the cores busy (getParallelWorkgroupTiles).
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op.getOperation())) {
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    int64_t rows = 1;
    bool dynamicReduction = false;
    for (auto [size, type] : llvm::zip_equal(ranges, types)) {
      if (ShapedType::isDynamic(size))
        dynamicReduction |= type == utils::IteratorType::reduction;
      else if (type == utils::IteratorType::parallel)
        rows *= size;
    }
    if (dynamicReduction)
      target = std::max<int64_t>(target, rows / 8);
  }
  // Reducing across rows (the innermost loop parallel), a workgroup walks
  // down a strip of columns: a wide strip reads each row in long contiguous
  // runs instead of one cache line per row and page.
  if (!types.empty() && types.back() == utils::IteratorType::parallel)
    target = std::max<int64_t>(target, 16 * lanes);
  SmallVector<int64_t> workgroup =
      getParallelWorkgroupTiles(sizes, types, lanes, target);
  SmallVector<int64_t> registerTile(sizes.size(), 1);
  if (!sizes.empty()) {
    int64_t innermost = sizes.size() - 1;
    // Along a reduced row: four vectors of partial results. Across rows: a
    // quarter of the register file of accumulators, kept in registers
    // while the reduction walks down the strip.
    registerTile[innermost] =
        types[innermost] == utils::IteratorType::reduction
            ? std::min(sizes[innermost], 4 * lanes)
            : std::min(lanes * std::max<int64_t>(1, cpu.vectorRegisters / 4),
                       workgroup[innermost]);
  }
  return getConfig(op->getContext(), CPUPipeline::Reduction, workgroup, {},
                   registerTile, registerTile);
}

/// A softmax along its innermost loop: rows per workgroup as for a
/// reduction, one row at a time inside (its exponentials are still in L1
/// when they are summed and divided), its maximum and sum each reduced
/// into four vectors of partial results.
static LoweringConfigAttr configureSoftmax(TilingInterface op,
                                           const CPUTargetInfo &cpu) {
  SmallVector<int64_t> sizes = getLoopSizes(op);
  auto types = op.getLoopIteratorTypes();
  int64_t lanes = cpu.lanes(getElementBits(op));
  int64_t row = sizes.back();
  SmallVector<int64_t> workgroup = getParallelWorkgroupTiles(
      sizes, types, lanes, std::max<int64_t>(1, 16 * 1024 / row));
  SmallVector<int64_t> rows(sizes.size(), 1), registerTile(sizes.size(), 1);
  rows.back() = 0;
  registerTile.back() = std::min(row, 4 * lanes);
  return getConfig(op->getContext(), CPUPipeline::Reduction, workgroup, rows,
                   registerTile, registerTile);
}

/// Everything else: workgroups over the parallel loops, scalar code inside.
static LoweringConfigAttr configureDefault(TilingInterface op,
                                           const CPUTargetInfo &cpu) {
  SmallVector<int64_t> sizes = getLoopSizes(op);
  SmallVector<int64_t> workgroup =
      getParallelWorkgroupTiles(sizes, op.getLoopIteratorTypes(), 1, 4 * 1024);
  return getConfig(op->getContext(), CPUPipeline::Default, workgroup, {}, {},
                   {});
}

LoweringConfigAttr kiln::selectCPULoweringConfig(Operation *root,
                                                 const CPUTargetInfo &cpu) {
  auto tiling = cast<TilingInterface>(root);
  if (isRowSoftmax(root))
    return configureSoftmax(tiling, cpu);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  if (!linalgOp)
    return configureDefault(tiling, cpu);
  if (linalg::isaConvolutionOpInterface(linalgOp)) {
    if (LoweringConfigAttr config = configureConvolution(linalgOp, cpu))
      return config;
    return configureDefault(tiling, cpu);
  }
  if (linalg::isaContractionOpInterface(linalgOp))
    if (LoweringConfigAttr config = configureContraction(linalgOp, cpu))
      return config;
  if (linalgOp.getNumLoops() == 0)
    return configureDefault(tiling, cpu);
  if (linalgOp.getNumReductionLoops() == 0)
    return configureElementwise(tiling, cpu);
  return configureReduction(tiling, cpu);
}

namespace {
struct CPUSelectLoweringConfigPass
    : public kiln::impl::CPUSelectLoweringConfigPassBase<
          CPUSelectLoweringConfigPass> {
  void runOnOperation() override {
    ExecutableVariantOp variant = getOperation();
    ModuleOp module = variant.getInnerModule();
    if (!module)
      return;
    CPUTargetInfo cpu = getCPUTargetInfo(variant.getTarget());
    StringRef attrName = KilnDialect::getLoweringConfigAttrName();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      bool configured = false;
      func.walk([&](Operation *op) { configured |= op->hasAttr(attrName); });
      if (configured)
        continue;
      Operation *root = findRootOp(func.getBody().front());
      if (!root || !isa<TilingInterface>(root))
        continue;
      if (LoweringConfigAttr config = selectCPULoweringConfig(root, cpu)) {
        root->setAttr(attrName, config);
        // For the explanation (--kiln-explain-tuning): no spec matched.
        Builder builder(root->getContext());
        root->setAttr(KilnDialect::getConfiguredByAttrName(),
                      builder.getDictionaryAttr(builder.getNamedAttr(
                          "heuristic", config.getPipeline())));
      }
    }
  }
};
} // namespace
