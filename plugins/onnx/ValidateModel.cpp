//===- ValidateModel.cpp - What ONNX's library must not see ---------------===//

#include "ValidateModel.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include "onnx/onnx_pb.h"

#include <string>

using namespace kiln;

/// "node 'conv1' (Conv)", or "node 3 (Conv)" unnamed.
static std::string describe(const onnx::NodeProto &node, int index) {
  std::string name =
      node.name().empty() ? std::to_string(index) : "'" + node.name() + "'";
  return "node " + name + " (" + node.op_type() + ")";
}

/// The window attributes of `node`'s op whose every value must be at least
/// `minimum`; empty for ops that have none.
static llvm::ArrayRef<std::pair<const char *, int64_t>>
getAttributeBounds(const std::string &op) {
  static const std::pair<const char *, int64_t> kWindow[] = {
      {"strides", 1}, {"dilations", 1}, {"kernel_shape", 1},
      {"group", 1},   {"pads", 0},      {"output_padding", 0}};
  static const std::pair<const char *, int64_t> kBlock[] = {{"blocksize", 1}};
  static const char *const kWindowOps[] = {
      "Conv",    "ConvTranspose", "ConvInteger", "QLinearConv",
      "MaxPool", "AveragePool",   "LpPool",      "MaxUnpool",
      "Col2Im",  "DeformConv",    "MaxRoiPool",  "GlobalLpPool"};
  for (const char *name : kWindowOps)
    if (op == name)
      return kWindow;
  if (op == "DepthToSpace" || op == "SpaceToDepth")
    return kBlock;
  return {};
}

llvm::Error onnx_plugin::validateModel(const onnx::ModelProto &model) {
  const onnx::GraphProto &graph = model.graph();
  llvm::StringSet<> defined;
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const onnx::TensorProto &initializer : graph.initializer())
    defined.insert(initializer.name());
  // Nodes in order, each reading what is defined before it (ONNX requires
  // a topological order; its checker says so too, after the converter
  // would already have run).
  for (auto [index, node] : llvm::enumerate(graph.node())) {
    int position = static_cast<int>(index);
    for (const std::string &input : node.input())
      if (!input.empty() && !defined.contains(input))
        return llvm::createStringError(
            describe(node, position) + " reads '" + input +
            "', which no input, initializer or earlier node defines");
    for (const onnx::AttributeProto &attribute : node.attribute()) {
      for (const auto &[name, minimum] : getAttributeBounds(node.op_type())) {
        if (attribute.name() != name)
          continue;
        auto check = [&](int64_t value) -> llvm::Error {
          if (value >= minimum)
            return llvm::Error::success();
          return llvm::createStringError(
              describe(node, position) + ": its attribute '" + name +
              "' holds " + std::to_string(value) + "; each must be " +
              std::to_string(minimum) + " or more");
        };
        for (int64_t value : attribute.ints())
          if (llvm::Error error = check(value))
            return error;
        if (attribute.has_i())
          if (llvm::Error error = check(attribute.i()))
            return error;
      }
    }
    for (const std::string &output : node.output())
      if (!output.empty())
        defined.insert(output);
  }
  for (const onnx::ValueInfoProto &output : graph.output())
    if (!defined.contains(output.name()))
      return llvm::createStringError(
          "graph output '" + output.name() +
          "' is not produced by any node, initializer or input");
  return llvm::Error::success();
}
