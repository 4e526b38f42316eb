//===- RootOps.h - What becomes a dispatch ----------------------*- C++ -*-===//
//
// The classification dispatch formation uses, shared with the phases after
// it that need to find a dispatch's root op again.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_UTILS_ROOTOPS_H
#define KILN_DIALECT_KILN_UTILS_ROOTOPS_H

#include "mlir/IR/Operation.h"

#include <string>

namespace kiln {

/// True for ops that compute a tensor and therefore run in a dispatch:
/// linalg ops on tensors, and tensor ops that move data (pad, concat,
/// slices, insert, generate, splat, gather, scatter). Ops that only describe
/// a tensor (empty, dim, reshapes, casts, extract) stay on the host.
bool isDispatchable(mlir::Operation *op);

/// True for roots formed in the first round: linalg ops with reduction
/// loops, and linalg ops with their own iteration space that are not
/// structured ops (softmax, pack, unpack, winograd).
bool isHeavyRoot(mlir::Operation *op);

/// The root op of a dispatch body: the first heavy root, or else the last
/// dispatchable op. Null when the block holds no dispatchable op.
mlir::Operation *findRootOp(mlir::Block &body);

/// A short description of `root` for symbol names: op kind, loop sizes
/// (`D` for dynamic ones) and element type, such as `matmul_8x16x32_f32`.
std::string describeRootOp(mlir::Operation *root);

/// What `root` is, for people reading a profile: the op's name, its loop
/// sizes (`?` for a dynamic one; the result's shape for ops without loops,
/// `-` for neither) and its result's element type (`-` without one),
/// separated by spaces, such as `linalg.matmul 8x16x32 f32`.
std::string summarizeRootOp(mlir::Operation *root);

} // namespace kiln

#endif // KILN_DIALECT_KILN_UTILS_ROOTOPS_H
