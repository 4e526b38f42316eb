//===- Sequences.h - Following ONNX sequences element by element -*- C++
//-*-===//
//
// What kiln-onnx-eliminate-sequences (EliminateSequences.cpp) keeps while
// it walks a graph: each sequence value as the list of its elements. The
// ops that pick from a list (at a constant or a run-time position) live in
// SequencePicks.cpp; those that make lists from tensors and tensors from
// lists (SplitToSequence, ConcatFromSequence) in EliminateSequences.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_SEQUENCES_H
#define KILN_PLUGINS_ONNX_SEQUENCES_H

#include "Converters.h"

namespace kiln::onnx_plugin {

using Elements = llvm::SmallVector<mlir::Value>;

class SequenceEliminator {
public:
  explicit SequenceEliminator(mlir::OpBuilder &builder) : b(builder) {}

  /// Rewrites `node` if it makes or reads a sequence.
  mlir::LogicalResult visit(NodeOp node);
  /// Erases the nodes this made whose results nothing reads (a Split
  /// whose sequence only had its length taken).
  void eraseUnused();

private:
  /// A sequence operand's elements; an error when it has none tracked.
  mlir::FailureOr<Elements *> getElements(NodeOp node, unsigned i);
  /// Input `i` of `node`, a position in a list of `size` (`size` too
  /// where inserting): a constant, or -1 with `dynamic` set to the index
  /// value (negatives wrapped) when it is known only at run time.
  mlir::FailureOr<int64_t> getPosition(NodeOp node, unsigned i, int64_t size,
                                       mlir::Value &dynamic);
  /// The candidate picked by `index` (an index value): a chain of scf.if,
  /// each candidate cast to `type`.
  mlir::Value pick(mlir::Location loc, llvm::ArrayRef<mlir::Value> candidates,
                   mlir::Value index, mlir::Type type);
  /// A node of the default domain at Kiln's opset.
  NodeOp createNode(mlir::Location loc, llvm::StringRef opType,
                    mlir::TypeRange results, mlir::ValueRange inputs,
                    llvm::ArrayRef<mlir::NamedAttribute> attributes);
  mlir::Value createAxes(mlir::Location loc, int64_t axis);

  mlir::LogicalResult insert(NodeOp node);
  mlir::LogicalResult erase(NodeOp node);
  mlir::LogicalResult at(NodeOp node);
  mlir::LogicalResult split(NodeOp node);
  mlir::LogicalResult concat(NodeOp node);

  mlir::OpBuilder &b;
  llvm::DenseMap<mlir::Value, Elements> sequences;
  llvm::SmallVector<NodeOp> created;
};

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_SEQUENCES_H
