//===- PrepareDowngrade.h - Opsets 18 to 21 in opset 17's forms -*- C++ -*-===//
//
// See PrepareDowngrade.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_PREPAREDOWNGRADE_H
#define KILN_PLUGINS_ONNX_PREPAREDOWNGRADE_H

#include "ONNX.h"

#include "llvm/Support/Error.h"

namespace onnx {
class ModelProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// The newest opset of the default domain Kiln reads: 18 to this one are
/// written in opset 17's forms before ONNX's library sees the model.
constexpr int64_t kNewestOpset = 21;

/// Rewrites every node of `model` (of default-domain opset `version`,
/// 18 to kNewestOpset) whose op changed after opset 17 into opset 17's
/// nodes of the same meaning, and makes the model import opset 17; an
/// error names a node that has no such form.
llvm::Error downgradeToOpset17(onnx::ModelProto &model, int64_t version);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_PREPAREDOWNGRADE_H
