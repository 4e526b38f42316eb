//===- Passes.td - ONNX conversion passes ------------------*- tablegen -*-===//

#ifndef KILN_PLUGINS_ONNX_PASSES_TD
#define KILN_PLUGINS_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

def ONNXEliminateSequencesPass
    : Pass<"kiln-onnx-eliminate-sequences", "mlir::ModuleOp"> {
  let summary = "Replace ONNX sequences by the tensors they hold";
  let description = [{
    A sequence inside a graph has a length Kiln knows when it compiles:
    SequenceEmpty, SequenceConstruct, SequenceInsert and SequenceErase
    change it by a fixed count, SplitToSequence splits a dim of static
    size or by a split of static length. This pass tracks each sequence
    as the list of its elements and rewrites the ops that read one:

    - SequenceAt, SequenceInsert and SequenceErase at a constant position
      pick list elements; at a position known only at run time they pick
      with a chain of `scf.if` on it (each element of the new list, for
      Insert and Erase), the candidates cast to their common type;
    - SequenceLength becomes a constant;
    - SplitToSequence becomes a Split node (and Squeezes without
      keepdims), ConcatFromSequence a Concat node (of Unsqueezes with
      new_axis), converted later like any other node;
    - Identity of a sequence is the same list.

    Any other op that reads a sequence, a position past the end, and a
    length that depends on data are errors naming the node.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def ONNXConvertToLinalgPass
    : Pass<"kiln-onnx-convert-to-linalg", "mlir::ModuleOp"> {
  let summary = "Lower imported ONNX nodes to linalg, tensor, arith and math";
  let description = [{
    Rewrites every `onnx.node` into ops on tensors of the upstream dialects
    Kiln compiles, by its op type (one converter per op; the converters of
    a family live in one file: elementwise, contractions, ...), and turns
    ONNX's unsigned element types into signless ones (the arithmetic that
    depends on signedness is picked before they are erased):

    ```mlir
    %y = onnx.node "Relu"(%x) {opset = 14 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    ```

    becomes a `linalg.generic` computing `arith.maximumf(%x, 0)`. A node
    whose op type, opset or attributes no converter supports fails the pass
    with an error that names the node, its op type and its opset; nothing
    is approximated.
  }];
  let dependentDialects = [
    "kiln::KilnDialect",
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // KILN_PLUGINS_ONNX_PASSES_TD
