//===- ValidateModel.h - What ONNX's library must not see -------*- C++ -*-===//
//
// ONNX's graph conversion (for its version converter) and shape inference
// trust the graph they get: a graph output nothing produces made the
// converter dereference a null node, Conv's strides of 0 divided by zero.
// validateModel checks those before the library runs, so that a malformed
// model is an error naming the node; what it misses, CheckModel.cpp's
// crash containment turns into an error too.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_VALIDATEMODEL_H
#define KILN_PLUGINS_ONNX_VALIDATEMODEL_H

#include "llvm/Support/Error.h"

namespace onnx {
class ModelProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// Fails, naming the node or value, when `model`'s graph has what ONNX's
/// library cannot take: an output, or a node input, that nothing defines,
/// window attributes (strides, dilations, kernel_shape, group, blocksize)
/// that are 0 or negative, negative pads.
llvm::Error validateModel(const onnx::ModelProto &model);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_VALIDATEMODEL_H
