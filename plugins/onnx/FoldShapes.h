//===- FoldShapes.h - Shape arithmetic computed at import -------*- C++ -*-===//
//
// See FoldShapes.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_FOLDSHAPES_H
#define KILN_PLUGINS_ONNX_FOLDSHAPES_H

namespace onnx {
class ModelProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// Replaces the nodes of `model`'s graph that compute small integer
/// tensors from known values (initializers, Constant nodes, and Shape or
/// Size of tensors whose inferred shapes are static) by Constant nodes:
/// Shape, Size, Gather, Add, Sub, Mul, Div, Neg, Cast, Concat, Slice,
/// Unsqueeze, Squeeze, Identity. Reads the types shape inference put in
/// the graph's value_info. True when it changed a node.
bool foldShapeComputations(onnx::ModelProto &model);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_FOLDSHAPES_H
