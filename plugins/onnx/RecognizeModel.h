//===- RecognizeModel.h - Is it an ONNX model, and where is it damaged ---===//
//
// See RecognizeModel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_RECOGNIZEMODEL_H
#define KILN_PLUGINS_ONNX_RECOGNIZEMODEL_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln::onnx_plugin {

/// True when `bytes` reads as the top-level fields of a ModelProto (known
/// field numbers with their wire types) with a graph, or as the start of
/// one cut short (its first field ir_version, as every writer puts it), so
/// that a truncated model is named as one. MLIR text and bytecode fail on
/// their first bytes.
bool looksLikeModel(llvm::StringRef bytes);

/// Where the top-level fields of `bytes`, a model protobuf did not parse,
/// stop making sense ("the file ends at byte N, inside field 'graph'...");
/// "" when they all read (the damage is inside a field).
std::string findModelDamage(llvm::StringRef bytes);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_RECOGNIZEMODEL_H
