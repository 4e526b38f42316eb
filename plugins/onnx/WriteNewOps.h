//===- WriteNewOps.h - New ops written in opset 17's ops --------*- C++ -*-===//
//
// See WriteNewOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_WRITENEWOPS_H
#define KILN_PLUGINS_ONNX_WRITENEWOPS_H

#include "NodeWriter.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>

namespace kiln::onnx_plugin {

/// What a rewrite reads of the graph around a node before ONNX's shape
/// inference has run: constants, and ranks where the model states them.
struct GraphFacts {
  /// The integers of a constant (an initializer or a Constant node).
  llvm::function_ref<std::optional<std::vector<int64_t>>(const std::string &)>
      constantInts;
  /// The values of a FLOAT constant.
  llvm::function_ref<std::optional<std::vector<float>>(const std::string &)>
      constantFloats;
  /// The dims of a constant.
  llvm::function_ref<std::optional<std::vector<int64_t>>(const std::string &)>
      constantDims;
  /// The rank a value is declared or known with; -1 when unknown.
  llvm::function_ref<int64_t(const std::string &)> rank;
};

/// Whether WriteNewOps.cpp writes `opType`, an op added after opset 17
/// (CenterCropPad, Col2Im, AffineGrid, DeformConv), in opset 17's ops.
bool hasOpset17Form(llvm::StringRef opType);

/// Writes `node`, one of those ops at default-domain opset `version`,
/// with `w`; an error names the node and what it needs.
llvm::Error writeNewOp(onnx::NodeProto &node, NodeWriter &w,
                       const GraphFacts &facts, int64_t version);

/// Writes a Resize (18 or later) with antialias 1 in mode linear or cubic
/// (see WriteAntialiasResize.cpp).
llvm::Error writeAntialiasResize(onnx::NodeProto &node, NodeWriter &w,
                                 const GraphFacts &facts, int64_t version);

/// Pad's pads for every dim of `data` (of `rank`, or -1 when unknown until
/// run time) from `begins` and `ends`, 1-D tensors of one element per
/// axis of `axes`; an error names the node (at `version`) and a repeated
/// or out-of-range axis.
llvm::Expected<std::string>
writeFullPads(NodeWriter &w, const std::string &data,
              llvm::ArrayRef<int64_t> axes, int64_t rank,
              const std::string &begins, const std::string &ends,
              int64_t version);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_WRITENEWOPS_H
