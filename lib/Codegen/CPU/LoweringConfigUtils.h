//===- LoweringConfigUtils.h - Shared steps of the CPU heuristics -*- C++
//-*-===//
//
// What the CPU lowering-config heuristics share: an op's loop sizes and
// element width, tile sizes clamped to a loop, and building a config; and
// the heuristics that live in files of their own.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_CODEGEN_CPU_LOWERINGCONFIGUTILS_H
#define KILN_LIB_CODEGEN_CPU_LOWERINGCONFIGUTILS_H

#include "kiln/Codegen/CPU/CPUPipelines.h"
#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {

/// Loop sizes, with dynamic sizes taken as large.
inline llvm::SmallVector<int64_t> getLoopSizes(mlir::TilingInterface op) {
  llvm::SmallVector<int64_t> sizes;
  if (auto linalgOp = mlir::dyn_cast<mlir::linalg::LinalgOp>(op.getOperation()))
    sizes = linalgOp.getStaticLoopRanges();
  else if (op->getNumResults() > 0)
    if (auto type =
            mlir::dyn_cast<mlir::ShapedType>(op->getResult(0).getType()))
      sizes.assign(type.getShape().begin(), type.getShape().end());
  sizes.resize(op.getLoopIteratorTypes().size(), mlir::ShapedType::kDynamic);
  for (int64_t &size : sizes)
    if (mlir::ShapedType::isDynamic(size))
      size = int64_t(1) << 20;
  return sizes;
}

/// The bit width of `op`'s result elements (32 when it has none).
inline unsigned getElementBits(mlir::Operation *op) {
  mlir::Type type = op->getNumResults()
                        ? mlir::getElementTypeOrSelf(op->getResult(0))
                        : mlir::Type();
  return type && type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 32;
}

/// A tile for a loop of `size`: a multiple of `step`, at most `limit`, and
/// dividing `size` when such a tile is at least half of `limit` (partial
/// tiles cost masks or padding). Small sizes get one tile, rounded up.
inline int64_t clampTile(int64_t size, int64_t step, int64_t limit) {
  if (size <= limit)
    return llvm::alignTo(size, step);
  for (int64_t tile = limit / step * step; tile >= limit / 2; tile -= step)
    if (size % tile == 0)
      return tile;
  return limit / step * step;
}

/// A config of `pipeline` with the given tiles.
inline LoweringConfigAttr getConfig(mlir::MLIRContext *context,
                                    CPUPipeline pipeline,
                                    llvm::ArrayRef<int64_t> workgroup,
                                    llvm::ArrayRef<int64_t> cache,
                                    llvm::ArrayRef<int64_t> registerTile,
                                    llvm::ArrayRef<int64_t> vector) {
  return LoweringConfigAttr::get(
      context, mlir::StringAttr::get(context, getCPUPipelineName(pipeline)),
      workgroup, cache, registerTile, vector);
}

/// A config with the pipeline of `like` (another config) and the given
/// tiles.
inline LoweringConfigAttr getConfigLike(LoweringConfigAttr like,
                                        llvm::ArrayRef<int64_t> workgroup,
                                        llvm::ArrayRef<int64_t> cache,
                                        llvm::ArrayRef<int64_t> registerTile,
                                        llvm::ArrayRef<int64_t> vector) {
  return LoweringConfigAttr::get(like.getContext(), like.getPipeline(),
                                 workgroup, cache, registerTile, vector);
}

/// The cpu-convolution heuristic (ConfigureConvolution.cpp); null for a
/// convolution it does not take.
LoweringConfigAttr configureConvolution(mlir::linalg::LinalgOp op,
                                        const CPUTargetInfo &cpu);

} // namespace kiln

#endif // KILN_LIB_CODEGEN_CPU_LOWERINGCONFIGUTILS_H
