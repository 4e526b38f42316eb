//===- Utils.cpp - Helpers shared by codegen passes -----------------------===//
//
// Finding a dispatch's root and carrying its tile sizes over to the ops
// fused with it.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Utils.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

using namespace mlir;
using namespace kiln;

/// The workgroup tile of each loop of `op`, derived from the root's tile
/// through the chain of elementwise ops between them.
std::optional<SmallVector<int64_t>>
kiln::getLoopTiles(Operation *op, Operation *root, ArrayRef<int64_t> rootTiles) {
  if (op == root)
    return SmallVector<int64_t>(rootTiles);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return std::nullopt;
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    auto result = dyn_cast<OpResult>(input->get());
    AffineMap inputMap = linalgOp.getMatchingIndexingMap(input);
    if (!result || !inputMap.isPermutation())
      continue;
    std::optional<SmallVector<int64_t>> valueTiles =
        getResultTiles(result, root, rootTiles);
    if (!valueTiles)
      continue;
    SmallVector<int64_t> loopTiles(linalgOp.getNumLoops(), 0);
    for (auto [dim, tile] : llvm::enumerate(*valueTiles))
      loopTiles[inputMap.getDimPosition(dim)] = tile;
    return loopTiles;
  }
  return std::nullopt;
}

std::optional<SmallVector<int64_t>>
kiln::getResultTiles(OpResult result, Operation *root,
                     ArrayRef<int64_t> rootTiles) {
  Operation *producer = result.getOwner();
  std::optional<SmallVector<int64_t>> loopTiles =
      getLoopTiles(producer, root, rootTiles);
  if (!loopTiles)
    return std::nullopt;
  auto type = cast<ShapedType>(result.getType());
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(producer)) {
    AffineMap map = linalgOp.getIndexingMapMatchingResult(result);
    if (!map.isProjectedPermutation())
      return std::nullopt;
    SmallVector<int64_t> tiles;
    for (unsigned dim = 0; dim < map.getNumResults(); ++dim)
      tiles.push_back((*loopTiles)[map.getDimPosition(dim)]);
    return tiles;
  }
  // Other roots (softmax, ...) qualify when their loops are their result's
  // dims.
  if (loopTiles->size() != static_cast<size_t>(type.getRank()))
    return std::nullopt;
  return loopTiles;
}

std::pair<Operation *, LoweringConfigAttr>
kiln::getRootOpAndConfig(FunctionOpInterface func) {
  std::pair<Operation *, LoweringConfigAttr> found = {nullptr, {}};
  func.walk([&](Operation *op) {
    if (auto config = op->getAttrOfType<LoweringConfigAttr>(
            KilnDialect::getLoweringConfigAttrName()))
      found = {op, config};
  });
  return found;
}

