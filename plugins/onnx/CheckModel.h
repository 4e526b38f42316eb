//===- CheckModel.h - ONNX's checker and shape inference --------*- C++ -*-===//
//
// ONNX's own model checker, version converter and shape inference report
// errors by throwing; Kiln is built without exceptions. CheckModel.cpp, the
// one file built with them, catches those and returns llvm::Errors.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_CHECKMODEL_H
#define KILN_PLUGINS_ONNX_CHECKMODEL_H

#include "llvm/Support/Error.h"

#include <cstdint>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// Runs ONNX's checker on `model` (well-formed graph: known ops of the
/// imported opsets, inputs defined before use, no cycles) and then its
/// shape inference, which adds the types it infers to the graph's
/// value_info. Inconsistent shapes are errors.
llvm::Error checkAndInferShapes(onnx::ModelProto &model);

/// Runs ONNX's checker on `model`, then its version converter, which
/// rewrites a model importing an older default-domain opset into one that
/// imports `version`, every node in that opset's form.
llvm::Error checkAndUpgrade(onnx::ModelProto &model, int64_t fromVersion,
                            int64_t version);

/// Rewrites the old forms of ops that ONNX's version converter cannot
/// take into forms it can, of the same meaning (PrepareUpgrade.cpp);
/// `model`, of default-domain opset `fromVersion`, has been through shape
/// inference.
/// ONNX's shape inference alone, strict, without the checker: for the
/// models Subgraphs.cpp makes of a node's subgraph.
llvm::Error inferGraphShapes(onnx::ModelProto &model);

/// Gives each graph output declared without a shape the type inference
/// found for it (ONNX's, or Kiln's in InferNewOps.cpp); an error names an
/// output nothing gave a shape.
llvm::Error completeOutputTypes(onnx::ModelProto &model);

void prepareUpgrade(onnx::ModelProto &model, int64_t fromVersion);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_CHECKMODEL_H
