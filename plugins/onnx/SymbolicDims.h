//===- SymbolicDims.h - Symbolic sizes checked at the call ------*- C++ -*-===//
//
// A model's inputs may share a symbolic dimension (`a: [N, 4]`,
// `b: [N, 3]`): the importer checks at the start of `main` that every
// dimension named alike has one size, so that a call with a mismatch
// fails naming both inputs instead of deep inside an op.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_SYMBOLICDIMS_H
#define KILN_PLUGINS_ONNX_SYMBOLICDIMS_H

#include "mlir/IR/Builders.h"

#include <string>

namespace onnx {
class ValueInfoProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// Adds, at `builder`'s point, a run-time check for every dynamic dim of
/// `arguments` (main's inputs, `infos` their graph inputs) whose symbol
/// an earlier dim has too: that the two sizes agree.
void checkSymbolicDims(mlir::OpBuilder &builder, mlir::Location loc,
                       llvm::ArrayRef<const onnx::ValueInfoProto *> infos,
                       mlir::ValueRange arguments);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_SYMBOLICDIMS_H
