//===- ValidateModel.cpp - What ONNX's library must not see ---------------===//

#include "ValidateModel.h"

#include "llvm/ADT/StringMap.h"
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

/// Fails when an input of a Gemm whose rank the model states (a graph
/// input's shape, an initializer's dims) is not what Gemm takes: A and B
/// matrices, C of rank 2 at most. Gemm's shape inference before opset 9
/// reads their dims unchecked (SIGSEGV on a 1-D B, found by the onnx_model
/// fuzzer).
static llvm::Error checkGemmRanks(const onnx::NodeProto &node, int position,
                                  const llvm::StringMap<int> &ranks) {
  for (int i = 0; i < node.input_size() && i < 3; ++i) {
    auto known = ranks.find(node.input(i));
    if (known == ranks.end())
      continue;
    int rank = known->second;
    if (i < 2 ? rank == 2 : rank <= 2)
      continue;
    return llvm::createStringError(
        describe(node, position) + ": input " + std::to_string(i) + " ('" +
        node.input(i) + "') has rank " + std::to_string(rank) +
        (i < 2 ? "; Gemm multiplies matrices (rank 2)"
               : "; Gemm's C has rank 2 at most"));
  }
  return llvm::Error::success();
}

llvm::Error onnx_plugin::validateModel(const onnx::ModelProto &model) {
  const onnx::GraphProto &graph = model.graph();
  llvm::StringSet<> defined;
  // The ranks the model states for its inputs and initializers.
  llvm::StringMap<int> ranks;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    defined.insert(input.name());
    if (input.type().has_tensor_type() &&
        input.type().tensor_type().has_shape())
      ranks[input.name()] = input.type().tensor_type().shape().dim_size();
  }
  for (const onnx::TensorProto &initializer : graph.initializer()) {
    defined.insert(initializer.name());
    ranks[initializer.name()] = initializer.dims_size();
  }
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
    if (node.op_type() == "Gemm" &&
        (node.domain().empty() || node.domain() == "ai.onnx"))
      if (llvm::Error error = checkGemmRanks(node, position, ranks))
        return error;
    for (const std::string &output : node.output()) {
      if (!output.empty())
        defined.insert(output);
      ranks.erase(output); // a node's output is not what its name had
    }
  }
  for (const onnx::ValueInfoProto &output : graph.output())
    if (!defined.contains(output.name()))
      return llvm::createStringError(
          "graph output '" + output.name() +
          "' is not produced by any node, initializer or input");
  return llvm::Error::success();
}
