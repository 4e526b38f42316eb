//===- Passes.td - ONNX conversion passes ------------------*- tablegen -*-===//

#ifndef KILN_PLUGINS_ONNX_PASSES_TD
#define KILN_PLUGINS_ONNX_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

#endif // KILN_PLUGINS_ONNX_PASSES_TD
