//===- ConfigSpace.cpp - The lowering configs llvm-cpu can take -----------===//
//
// Axes around the heuristic's config: for a contraction, the register tile
// (rows and vector columns), the K depth of a cache block and the row and
// column tiles of a workgroup (in register tiles); for a convolution, the
// register strip (pixels and channels), the channels and rows of a
// workgroup. Values come from the shape and the CPU; a point must fit the
// vector registers and the caches, and pass the codegen verifier.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "LoweringConfigUtils.h"
#include "kiln/Codegen/CPU/Passes.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;

/// The base's size at `level` of `loop`.
static int64_t getSize(LoweringConfigAttr config, TileLevel level,
                       unsigned loop) {
  ArrayRef<int64_t> sizes =
      level == TileLevel::Workgroup ? config.getWorkgroupTile()
      : level == TileLevel::Cache   ? config.getCacheTile()
                                    : config.getRegisterTile();
  return loop < sizes.size() ? sizes[loop] : 0;
}

std::optional<size_t> ConfigSpace::addAxis(ConfigAxis axis) {
  auto [level, loop] = axis.sizes.front();
  int64_t baseValue = getSize(base, level, loop);
  if (axis.unitAxis) {
    // In units of the other axis's base value.
    const ConfigAxis &unit = axes[*axis.unitAxis];
    int64_t unitValue = unit.values[basePoint[*axis.unitAxis]];
    if (unitValue <= 0 || baseValue % unitValue != 0)
      return std::nullopt; // the base is no whole number of units
    baseValue /= unitValue;
  }
  if (baseValue <= 0)
    return std::nullopt;
  axis.values.push_back(baseValue);
  llvm::erase_if(axis.values, [](int64_t v) { return v <= 0; });
  llvm::sort(axis.values);
  axis.values.erase(llvm::unique(axis.values), axis.values.end());
  basePoint.push_back(llvm::find(axis.values, baseValue) - axis.values.begin());
  axes.push_back(std::move(axis));
  return axes.size() - 1;
}

LoweringConfigAttr
ConfigSpace::getConfig(const std::vector<size_t> &point) const {
  if (point.size() != axes.size())
    return {};
  SmallVector<int64_t> workgroup(base.getWorkgroupTile());
  SmallVector<int64_t> cache(base.getCacheTile());
  SmallVector<int64_t> registerTile(base.getRegisterTile());
  SmallVector<int64_t> vector(base.getVectorSizes());
  for (auto [index, axis] : llvm::enumerate(axes)) {
    if (point[index] >= axis.values.size())
      return {};
    int64_t value = axis.values[point[index]];
    if (axis.unitAxis)
      value *= axes[*axis.unitAxis].values[point[*axis.unitAxis]];
    for (auto [level, loop] : axis.sizes) {
      SmallVector<int64_t> &sizes = level == TileLevel::Workgroup ? workgroup
                                    : level == TileLevel::Cache   ? cache
                                                                : registerTile;
      if (loop >= sizes.size())
        return {};
      sizes[loop] = value;
      if (level == TileLevel::Register && loop < vector.size())
        vector[loop] = value;
    }
  }
  LoweringConfigAttr config =
      kiln::getConfigLike(base, workgroup, cache, registerTile, vector);
  if (!fits(config))
    return {};
  // Codegen's own checks, quietly.
  ScopedDiagnosticHandler quiet(root->getContext(),
                                [](Diagnostic &) { return success(); });
  if (failed(verifyCPULoweringConfig(
          root, config, [&] { return emitError(root->getLoc()); })))
    return {};
  return config;
}

bool ConfigSpace::fits(LoweringConfigAttr config) const {
  if (rowLoop < 0 || vectorLoop < 0)
    return true;
  ArrayRef<int64_t> registerTile = config.getRegisterTile();
  // A workgroup tile past the loop by a register tile or more is the
  // whole loop again.
  ArrayRef<int64_t> workgroup = config.getWorkgroupTile();
  for (int loop : {rowLoop, vectorLoop})
    if (workgroup[loop] >=
        loopSizes[loop] + std::max<int64_t>(1, registerTile[loop]))
      return false;
  int64_t lanes = cpu.lanes(elementBytes * 8);
  int64_t rows = std::max<int64_t>(1, registerTile[rowLoop]);
  int64_t vectors =
      llvm::divideCeil(std::max<int64_t>(1, registerTile[vectorLoop]), lanes);
  // Accumulators, one row of the other operand, and a broadcast.
  if (rows * vectors + vectors + 1 > cpu.vectorRegisters)
    return false;
  if (kLoop < 0 || columnLoop < 0)
    return true;
  // A kc x nc block of B in L2, a kc x nr panel of it in L1.
  ArrayRef<int64_t> cache = config.getCacheTile();
  int64_t kc = std::max<int64_t>(1, cache[kLoop]);
  int64_t nc = std::max<int64_t>(1, cache[columnLoop]);
  int64_t nr = std::max<int64_t>(1, registerTile[vectorLoop]);
  return kc * nc * elementBytes <= cpu.l2Bytes &&
         kc * nr * elementBytes <= cpu.l1Bytes;
}

uint64_t ConfigSpace::getPointCount() const {
  uint64_t count = 1;
  for (const ConfigAxis &axis : axes)
    count = llvm::SaturatingMultiply<uint64_t>(count, axis.values.size());
  return count;
}

std::vector<LoweringConfigAttr> ConfigSpace::enumerate(size_t limit) const {
  std::vector<LoweringConfigAttr> configs;
  if (limit == 0)
    return configs;
  configs.push_back(base);
  std::vector<size_t> point(axes.size(), 0);
  for (uint64_t i = 0, e = getPointCount(); i < e && configs.size() < limit;
       ++i) {
    if (LoweringConfigAttr config = getConfig(point); config && config != base)
      configs.push_back(config);
    // The next point, the last axis fastest.
    for (size_t a = axes.size(); a-- > 0;) {
      if (++point[a] < axes[a].values.size())
        break;
      point[a] = 0;
    }
  }
  return configs;
}

/// 1, 2, 4, ... up to `limit`.
static std::vector<int64_t> powersOfTwo(int64_t limit) {
  std::vector<int64_t> values;
  for (int64_t v = 1; v <= limit; v *= 2)
    values.push_back(v);
  return values;
}

std::optional<ConfigSpace> ConfigSpace::get(Operation *root,
                                            const CPUTargetInfo &cpu) {
  if (!isa<TilingInterface>(root))
    return std::nullopt;
  LoweringConfigAttr base = selectCPULoweringConfig(root, cpu);
  if (!base)
    return std::nullopt;
  ConfigSpace space(root, cpu, base);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  std::optional<CPUPipeline> pipeline = getCPUPipeline(base);
  if (!linalgOp || (pipeline != CPUPipeline::Contraction &&
                    pipeline != CPUPipeline::Convolution))
    return space;
  SmallVector<int64_t> sizes = getLoopSizes(cast<TilingInterface>(root));
  space.loopSizes.assign(sizes.begin(), sizes.end());
  space.elementBytes = std::max<unsigned>(8, getElementBits(root)) / 8;
  int64_t lanes = cpu.lanes(getElementBits(root));
  int64_t wideRows = cpu.vectorRegisters >= 32 ? 14 : 6;

  if (pipeline == CPUPipeline::Contraction) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
      return space;
    unsigned m = dims->m.back(), n = dims->n.back(), k = dims->k.back();
    space.rowLoop = m;
    space.vectorLoop = n;
    space.kLoop = k;
    space.columnLoop = n;
    // B in compile-time panels fixes the register tile's columns and the
    // workgroup's (one panel wide): only rows and depth move.
    bool panels = base.getWorkgroupTile()[n] == base.getRegisterTile()[n] &&
                  base.getCacheTile()[n] == base.getRegisterTile()[n] &&
                  sizes[n] == base.getRegisterTile()[n];
    std::vector<int64_t> rows;
    for (int64_t r = 1; r <= std::min<int64_t>(wideRows, sizes[m]); ++r)
      rows.push_back(r);
    std::optional<size_t> rowAxis =
        space.addAxis({"register rows", {{TileLevel::Register, m}}, rows, {}});
    std::optional<size_t> columnAxis;
    if (!panels) {
      std::vector<int64_t> columns;
      for (int64_t v = 1; v <= 4 && (v - 1) * lanes < sizes[n]; ++v)
        columns.push_back(v * lanes);
      columnAxis = space.addAxis(
          {"register columns", {{TileLevel::Register, n}}, columns, {}});
    }
    std::vector<int64_t> depths;
    for (int64_t kc : {32, 64, 128, 256, 384, 512, 768, 1024})
      if (kc < sizes[k])
        depths.push_back(kc);
    depths.push_back(sizes[k]);
    space.addAxis({"cache depth", {{TileLevel::Cache, k}}, depths, {}});
    // Workgroup rows, in register tiles, up to the whole M.
    if (rowAxis)
      space.addAxis({"workgroup rows",
                     {{TileLevel::Workgroup, m}, {TileLevel::Cache, m}},
                     {1, 2, 4, 6, 8, 11, 16, 22, 32, 43, 64},
                     rowAxis});
    if (columnAxis)
      space.addAxis({"workgroup columns",
                     {{TileLevel::Workgroup, n}, {TileLevel::Cache, n}},
                     powersOfTwo(32),
                     columnAxis});
    return space;
  }

  // Convolutions: the register strip and the workgroup around it.
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(linalgOp);
  if (failed(dims) || dims->outputImage.empty())
    return space;
  AffineMap outputMap =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  auto innermost = dyn_cast<AffineDimExpr>(outputMap.getResults().back());
  if (!innermost)
    return space;
  unsigned channel = innermost.getPosition();
  unsigned width = dims->outputImage.back();
  ArrayRef<int64_t> registerTile = base.getRegisterTile();
  if (registerTile[channel] <= 0 || registerTile[width] <= 0)
    return space; // grouped and multi-group forms: the base alone
  space.rowLoop = width;
  space.vectorLoop = channel;
  std::vector<int64_t> pixels;
  for (int64_t w = 1; w <= std::min<int64_t>(wideRows, sizes[width]); ++w)
    pixels.push_back(w);
  space.addAxis(
      {"register pixels", {{TileLevel::Register, width}}, pixels, {}});
  std::vector<int64_t> channels;
  for (int64_t v = 1; v <= 4 && (v - 1) * lanes < sizes[channel]; ++v)
    channels.push_back(v * lanes);
  std::optional<size_t> channelAxis = space.addAxis(
      {"register channels",
       {{TileLevel::Register, channel}, {TileLevel::Cache, channel}},
       channels,
       {}});
  if (channelAxis)
    space.addAxis({"workgroup channels",
                   {{TileLevel::Workgroup, channel}},
                   powersOfTwo(16),
                   channelAxis});
  if (dims->outputImage.size() > 1) {
    unsigned height = dims->outputImage.front();
    std::vector<int64_t> heights = powersOfTwo(sizes[height]);
    heights.push_back(sizes[height]);
    space.addAxis(
        {"workgroup rows", {{TileLevel::Workgroup, height}}, heights, {}});
  }
  return space;
}
