//===- ControlFlow.h - If, Loop and Scan ------------------------*- C++ -*-===//
//
// What the converters of If (ControlFlow.cpp), Loop and Scan (Loops.cpp)
// share.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_CONTROLFLOW_H
#define KILN_PLUGINS_ONNX_CONTROLFLOW_H

#include "Converters.h"

namespace kiln::onnx_plugin {

/// The region of the node's graph attribute `name`; an error when absent.
mlir::Region *getGraph(NodeConverter &node, llvm::StringRef name);

/// The ranked types of the node's results; an error names a result whose
/// rank is unknown.
mlir::FailureOr<llvm::SmallVector<mlir::RankedTensorType>>
getResultTypes(NodeConverter &node);

/// `value` as `type`, which differs from its own in static sizes only;
/// an error names `what` otherwise.
mlir::FailureOr<mlir::Value> castTo(NodeConverter &node, mlir::OpBuilder &b,
                                    mlir::Value value, mlir::Type type,
                                    const llvm::Twine &what);

/// `values` cast to `types` (castTo, each named "`what` i").
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
castAll(NodeConverter &node, mlir::OpBuilder &b, mlir::ValueRange values,
        mlir::TypeRange types, llvm::StringRef what);

/// The one element of `tensor` (of any rank) as a scalar; a run-time check
/// that each dynamic dim is 1.
mlir::FailureOr<mlir::Value> extractScalar(NodeConverter &node,
                                           mlir::OpBuilder &b,
                                           mlir::Value tensor,
                                           const llvm::Twine &what);

/// `scalar` as a tensor of `type` (rank 0, or one element).
mlir::Value fromScalar(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value scalar, mlir::Type type);

/// Moves the ops of `block`, a node's subgraph, before `where` in `dest`,
/// its arguments replaced by `arguments`; returns what its onnx.yield
/// returned (the yield is erased).
llvm::SmallVector<mlir::Value> inlineGraph(mlir::Block &block,
                                           mlir::Block &dest,
                                           mlir::Block::iterator where,
                                           mlir::ValueRange arguments);

mlir::LogicalResult convertLoop(NodeConverter &node,
                                llvm::SmallVectorImpl<mlir::Value> &results);
mlir::LogicalResult convertScan(NodeConverter &node,
                                llvm::SmallVectorImpl<mlir::Value> &results);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_CONTROLFLOW_H
