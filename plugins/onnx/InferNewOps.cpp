//===- InferNewOps.cpp - Types of ops ONNX 1.12 does not know -------------===//
//
// Ops of opsets 18 to 21 that opset 17's ops cannot write (BitwiseAnd,
// BitwiseOr, BitwiseXor, BitwiseNot) travel in a domain of Kiln's, which
// ONNX 1.12 lets through untyped; and ONNX 1.12 leaves an STFT over a
// signal of dynamic length untyped. Kiln types their outputs itself, from
// their inputs (numpy broadcasting for the binary ones), writes those
// types into the graph's value_info, and lets ONNX's shape inference go on
// from there: rounds until nothing is left to type.
//
//===----------------------------------------------------------------------===//

#include "InferNewOps.h"
#include "CheckModel.h"
#include "TensorProto.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

using namespace kiln;
using namespace kiln::onnx_plugin;

bool onnx_plugin::isKilnInferredOp(llvm::StringRef opType) {
  return llvm::is_contained(
      {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"}, opType);
}

static bool isIntegerType(int32_t type) {
  return llvm::is_contained(
      {onnx::TensorProto::INT8, onnx::TensorProto::INT16,
       onnx::TensorProto::INT32, onnx::TensorProto::INT64,
       onnx::TensorProto::UINT8, onnx::TensorProto::UINT16,
       onnx::TensorProto::UINT32, onnx::TensorProto::UINT64},
      type);
}

static llvm::Error fail(const onnx::NodeProto &node, const llvm::Twine &why) {
  return llvm::createStringError(
      (node.name().empty()
           ? "a " + node.op_type() + " node"
           : "node '" + node.name() + "' (" + node.op_type() + ")") +
      ": " + why);
}

/// STFT's output [batch, frames, frequencies, 2], from its signal's and
/// window's types (ONNX 1.12 types it only when the signal's length is
/// static): the frames, and the frequencies without a window, unknown.
static llvm::Expected<std::optional<onnx::TypeProto>>
inferSTFT(const onnx::NodeProto &node,
          const llvm::StringMap<const onnx::TypeProto *> &types) {
  const onnx::TypeProto *signal =
      node.input_size() ? types.lookup(node.input(0)) : nullptr;
  if (!signal)
    return std::nullopt;
  if (!signal->has_tensor_type() || !signal->tensor_type().has_shape())
    return fail(node, "its signal has no shape");
  const onnx::TensorShapeProto &shape = signal->tensor_type().shape();
  if (shape.dim_size() != 2 && shape.dim_size() != 3)
    return fail(node, "its signal must be [batch, length] or [batch, "
                      "length, 1 or 2]");
  onnx::TypeProto result;
  onnx::TypeProto_Tensor &tensor = *result.mutable_tensor_type();
  tensor.set_elem_type(signal->tensor_type().elem_type());
  onnx::TensorShapeProto &out = *tensor.mutable_shape();
  *out.add_dim() = shape.dim(0);
  out.add_dim();
  onnx::TensorShapeProto::Dimension &frequencies = *out.add_dim();
  out.add_dim()->set_dim_value(2);
  if (node.input_size() > 2 && !node.input(2).empty()) {
    const onnx::TypeProto *window = types.lookup(node.input(2));
    if (!window)
      return std::nullopt;
    bool onesided = true;
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == "onesided")
        onesided = attribute.i() != 0;
    if (window->has_tensor_type() && window->tensor_type().has_shape() &&
        window->tensor_type().shape().dim_size() == 1 &&
        window->tensor_type().shape().dim(0).has_dim_value()) {
      int64_t length = window->tensor_type().shape().dim(0).dim_value();
      frequencies.set_dim_value(onesided ? length / 2 + 1 : length);
    }
  }
  return result;
}

/// The type `node`'s output has, from its inputs' `types`; nullopt while
/// an input is not typed yet.
static llvm::Expected<std::optional<onnx::TypeProto>>
inferNode(const onnx::NodeProto &node,
          const llvm::StringMap<const onnx::TypeProto *> &types) {
  if (node.op_type() == "STFT")
    return inferSTFT(node, types);
  std::vector<const onnx::TypeProto_Tensor *> inputs;
  for (const std::string &name : node.input()) {
    const onnx::TypeProto *type = types.lookup(name);
    if (!type)
      return std::nullopt;
    if (!type->has_tensor_type())
      return fail(node, "its input '" + name + "' is not a tensor");
    inputs.push_back(&type->tensor_type());
  }
  size_t arity = node.op_type() == "BitwiseNot" ? 1 : 2;
  if (inputs.size() != arity || node.output_size() != 1)
    return fail(node, "it takes " + llvm::Twine(arity) +
                          " inputs and gives one output");
  int32_t element = inputs[0]->elem_type();
  for (const onnx::TypeProto_Tensor *input : inputs)
    if (input->elem_type() != element || !isIntegerType(element))
      return fail(node, "its inputs must be integers of one type; they are " +
                            getDataTypeName(element) + " and " +
                            getDataTypeName(input->elem_type()));
  onnx::TypeProto result;
  onnx::TypeProto_Tensor &tensor = *result.mutable_tensor_type();
  tensor.set_elem_type(element);
  if (!llvm::all_of(inputs, [](auto *input) { return input->has_shape(); }))
    return result;
  // numpy broadcasting, aligned to the right.
  int rank = 0;
  for (const onnx::TypeProto_Tensor *input : inputs)
    rank = std::max(rank, input->shape().dim_size());
  onnx::TensorShapeProto &shape = *tensor.mutable_shape();
  for (int d = 0; d < rank; ++d) {
    onnx::TensorShapeProto::Dimension dim;
    bool known = true;
    int64_t size = 1;
    for (const onnx::TypeProto_Tensor *input : inputs) {
      int offset = rank - input->shape().dim_size();
      if (d < offset)
        continue;
      const onnx::TensorShapeProto::Dimension &given =
          input->shape().dim(d - offset);
      if (!given.has_dim_value()) {
        known = false;
        continue;
      }
      int64_t value = given.dim_value();
      if (value == 1)
        continue;
      if (size != 1 && size != value)
        return fail(node, "its inputs' shapes do not broadcast: dim " +
                              llvm::Twine(d) + " is " + llvm::Twine(size) +
                              " and " + llvm::Twine(value));
      size = value;
    }
    if (known || size != 1)
      dim.set_dim_value(size);
    *shape.add_dim() = dim;
  }
  return result;
}

llvm::Error onnx_plugin::inferNewOps(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  // STFTs whose output ONNX's inference left without a shape (over a
  // signal of dynamic length).
  llvm::StringSet<> shaped;
  for (const auto *infos : {&graph.value_info(), &graph.output()})
    for (const onnx::ValueInfoProto &info : *infos)
      if (info.type().has_tensor_type() &&
          info.type().tensor_type().has_shape())
        shaped.insert(info.name());
  llvm::StringSet<> unshapedSTFTs;
  for (const onnx::NodeProto &node : graph.node())
    if ((node.domain().empty() || node.domain() == "ai.onnx") &&
        node.op_type() == "STFT" && node.output_size() == 1 &&
        !shaped.contains(node.output(0)))
      unshapedSTFTs.insert(node.output(0));
  auto isNew = [&](const onnx::NodeProto &node) {
    return node.domain() == kNewOpsDomain ||
           (node.output_size() == 1 && node.op_type() == "STFT" &&
            unshapedSTFTs.contains(node.output(0)));
  };
  if (llvm::none_of(graph.node(), isNew))
    return llvm::Error::success();
  // What ONNX's inference wrote for those (an element type alone) makes
  // way for Kiln's.
  auto *infos = graph.mutable_value_info();
  for (int i = infos->size() - 1; i >= 0; --i)
    if (unshapedSTFTs.contains(infos->Get(i).name()))
      infos->DeleteSubrange(i, 1);
  for (int round = 0; round <= graph.node_size(); ++round) {
    llvm::StringMap<const onnx::TypeProto *> types;
    for (const onnx::ValueInfoProto &info : graph.input())
      types[info.name()] = &info.type();
    for (const onnx::ValueInfoProto &info : graph.value_info())
      types[info.name()] = &info.type();
    std::vector<onnx::TypeProto> initializerTypes;
    initializerTypes.reserve(graph.initializer_size());
    for (const onnx::TensorProto &tensor : graph.initializer()) {
      onnx::TypeProto &type = initializerTypes.emplace_back();
      type.mutable_tensor_type()->set_elem_type(tensor.data_type());
      for (int64_t dim : tensor.dims())
        type.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(
            dim);
      types[tensor.name()] = &type;
    }
    // Graph outputs are typed as declared; the node's own value_info is
    // what counts as inferred.
    llvm::StringMap<bool> inferred;
    for (const onnx::ValueInfoProto &info : graph.value_info())
      inferred[info.name()] = true;
    std::vector<std::pair<std::string, onnx::TypeProto>> found;
    for (const onnx::NodeProto &node : graph.node()) {
      if (!isNew(node))
        continue;
      if (node.output_size() != 1 || node.output(0).empty())
        return fail(node, "it gives one output");
      if (inferred.count(node.output(0)))
        continue;
      llvm::Expected<std::optional<onnx::TypeProto>> type =
          inferNode(node, types);
      if (!type)
        return type.takeError();
      if (*type)
        found.emplace_back(node.output(0), std::move(**type));
    }
    if (found.empty())
      break;
    for (auto &[name, type] : found) {
      onnx::ValueInfoProto &info = *graph.add_value_info();
      info.set_name(name);
      *info.mutable_type() = std::move(type);
    }
    if (llvm::Error failure = inferGraphShapes(model))
      return failure;
  }
  for (const onnx::NodeProto &node : graph.node())
    if (isNew(node) && llvm::none_of(graph.value_info(), [&](auto &info) {
          return info.name() == node.output(0);
        }))
      return fail(node, "the types of its inputs are unknown");
  return llvm::Error::success();
}
