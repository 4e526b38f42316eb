//===- ONNXOps.td - ONNX graphs as MLIR --------------------*- tablegen -*-===//
//
// What the ONNX importer produces: one generic op per ONNX node, carrying
// its op type, domain, opset and attributes, on tensors whose element types
// keep ONNX's signedness (ui8 for UINT8), and sequences of them.
// kiln-onnx-eliminate-sequences and kiln-onnx-convert-to-linalg lower them
// during the input phase; nothing else reads these ops.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_ONNXOPS_TD
#define KILN_PLUGINS_ONNX_ONNXOPS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  // Not `onnx`: that is the namespace of ONNX's protobuf classes.
  let cppNamespace = "::kiln::onnx_plugin";
  let summary = "ONNX nodes as imported, before conversion to linalg";
  let useDefaultTypePrinterParser = 1;
}

def ONNX_SequenceType : TypeDef<ONNX_Dialect, "Sequence"> {
  let mnemonic = "seq";
  let summary = "An ONNX sequence of tensors";
  let description = [{
    The value of a sequence op (SequenceConstruct, SplitToSequence, ...)
    inside a graph, its elements of `elementType` (the type ONNX's shape
    inference gives them all: a dim differs between elements where it is
    dynamic). kiln-onnx-eliminate-sequences replaces sequences by their
    elements before conversion; graph inputs and outputs cannot be
    sequences.
  }];
  let parameters = (ins "::mlir::TensorType":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic, traits>;

def ONNX_NodeOp : ONNX_Op<"node", [Pure]> {
  let summary = "One ONNX node";
  let description = [{
    An ONNX node as the model has it: `op_type` in `domain` ("" is the
    default `ai.onnx` domain) at version `opset` of that domain, the node's
    attributes in `onnx_attrs` (INT as i64, FLOAT as f32, STRING as a
    string, TENSOR as an elements attribute, INTS, FLOATS and STRINGS as
    arrays of those), and its inputs and outputs in order. A missing
    optional input is the result of `onnx.none`. The location names the
    node.

    A node with GRAPH attributes (If's branches, the bodies of Loop and
    Scan) holds one region per graph, named in order by `graph_attrs`:
    its block's arguments are the graph's inputs, `onnx.yield` returns
    its outputs, and its nodes read values of enclosing graphs directly.

    ```mlir
    %y = onnx.node "Conv"(%x, %w, %none) {opset = 17 : i64,
        onnx_attrs = {pads = [1, 1, 1, 1], strides = [1, 1]}}
        : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none)
        -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins
    Variadic<AnyType>:$inputs,
    StrAttr:$op_type,
    DefaultValuedStrAttr<StrAttr, "">:$domain,
    I64Attr:$opset,
    DefaultValuedAttr<DictionaryAttr, "{}">:$onnx_attrs,
    OptionalAttr<StrArrayAttr>:$graph_attrs
  );
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region VariadicRegion<SizedRegion<1>>:$bodies);
  let assemblyFormat = [{
    $op_type `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
    $bodies
  }];
  let hasVerifier = 1;
}

def ONNX_YieldOp : ONNX_Op<"yield",
    [Pure, Terminator, HasParent<"NodeOp">]> {
  let summary = "The outputs of a node's graph attribute (a subgraph)";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def ONNX_NoneOp : ONNX_Op<"none", [Pure]> {
  let summary = "A missing optional input of a node";
  let results = (outs NoneType:$result);
  let assemblyFormat = "attr-dict";
}

#endif // KILN_PLUGINS_ONNX_ONNXOPS_TD
