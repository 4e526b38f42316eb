//===- Utils.h - Helpers shared by codegen passes ---------------*- C++ -*-===//
//
// Finding a dispatch's root and carrying its tile sizes over to the ops
// fused with it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_COMMON_UTILS_H
#define KILN_CODEGEN_COMMON_UTILS_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace kiln {

/// The op of `func` that carries a `kiln.lowering_config` (the dispatch's
/// root) and that config; {nullptr, {}} when there is none.
std::pair<mlir::Operation *, LoweringConfigAttr>
getRootOpAndConfig(mlir::FunctionOpInterface func);

/// The tile of each loop of `op`, given the tile of each loop of `root`:
/// `rootTiles` itself for the root, and for an elementwise op fused after
/// it, the tiles carried over through the indexing maps in between. None
/// when `op` is not on such a chain.
std::optional<llvm::SmallVector<int64_t>>
getLoopTiles(mlir::Operation *op, mlir::Operation *root,
             llvm::ArrayRef<int64_t> rootTiles);

/// The tile of each dim of `result`, given the tile of each loop of `root`:
/// for `root`'s own results through its indexing map, for results of
/// elementwise ops fused after it through theirs. None when `result` is not
/// on such a chain.
std::optional<llvm::SmallVector<int64_t>>
getResultTiles(mlir::OpResult result, mlir::Operation *root,
               llvm::ArrayRef<int64_t> rootTiles);

} // namespace kiln

#endif // KILN_CODEGEN_COMMON_UTILS_H
