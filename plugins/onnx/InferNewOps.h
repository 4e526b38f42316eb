//===- InferNewOps.h - Types of ops ONNX 1.12 does not know -----*- C++ -*-===//
//
// See InferNewOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_INFERNEWOPS_H
#define KILN_PLUGINS_ONNX_INFERNEWOPS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace onnx {
class ModelProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// The domain of the nodes of opsets after 17 that have no form in opset
/// 17's ops: PrepareDowngrade.cpp moves them there (ONNX 1.12's checker
/// takes nodes of a domain it does not know, and its shape inference
/// leaves their outputs untyped), inferNewOps types them, and converters
/// read them under their own op types.
constexpr llvm::StringLiteral kNewOpsDomain = "ai.onnx.kiln_newer";

/// Whether `opType` (of an opset after 17) is one Kiln moves into
/// kNewOpsDomain and types itself.
bool isKilnInferredOp(llvm::StringRef opType);

/// Types the outputs of `model`'s main-graph nodes of kNewOpsDomain from
/// their inputs' types, then runs ONNX's shape inference again from
/// there, until every such output is typed; an error names a node whose
/// inputs do not fit its op.
llvm::Error inferNewOps(onnx::ModelProto &model);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_INFERNEWOPS_H
