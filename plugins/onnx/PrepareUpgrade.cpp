//===- PrepareUpgrade.cpp - Old op forms the version converter fails on ---===//
//
// ONNX 1.12's version converter asserts on some old forms that ONNX
// Runtime runs: Softmax, LogSoftmax and Hardmax before opset 13 (which
// flatten their input at `axis`) whose input's rank shape inference does
// not know, and constant Pad before 11 without its optional `value`.
// Before the upgrade, Kiln rewrites those into forms that mean the same in
// every opset and that the converter takes: the flattening made explicit
// (Shape, Flatten at `axis`, the op along axis 1 of the 2-D result,
// Reshape back), the default value written out. Subgraphs (If's branches,
// loop bodies) are rewritten the same way.
//
//===----------------------------------------------------------------------===//

#include "CheckModel.h"
#include "Subgraphs.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

using namespace kiln;

using KnownTypes = llvm::StringMap<std::pair<int32_t, int64_t>>;

/// The element type and rank shape inference left on each value of
/// `graph` (rank -1 where it does not know it), added to `types`, those
/// of the graphs around it.
static KnownTypes getKnownTypes(const onnx::GraphProto &graph,
                                KnownTypes types = {}) {
  auto add = [&](const onnx::ValueInfoProto &info) {
    if (!info.type().has_tensor_type())
      return;
    const onnx::TypeProto_Tensor &tensor = info.type().tensor_type();
    types[info.name()] = {tensor.elem_type(),
                          tensor.has_shape() ? tensor.shape().dim_size() : -1};
  };
  for (const onnx::ValueInfoProto &info : graph.input())
    add(info);
  for (const onnx::ValueInfoProto &info : graph.value_info())
    add(info);
  for (const onnx::ValueInfoProto &info : graph.output())
    add(info);
  for (const onnx::TensorProto &tensor : graph.initializer())
    types[tensor.name()] = {tensor.data_type(), tensor.dims_size()};
  return types;
}

static void prepareGraph(onnx::GraphProto &graph, int64_t fromVersion,
                         const KnownTypes &outer, llvm::StringSet<> &names);

void onnx_plugin::prepareUpgrade(onnx::ModelProto &model, int64_t fromVersion) {
  // Every name in the model, so that new ones are fresh.
  llvm::StringSet<> names;
  collectNames(model.graph(), names);
  prepareGraph(*model.mutable_graph(), fromVersion, {}, names);
}

static void prepareGraph(onnx::GraphProto &graph, int64_t fromVersion,
                         const KnownTypes &outer, llvm::StringSet<> &names) {
  KnownTypes types = getKnownTypes(graph, outer);
  // The converter sees the ranks of a graph's own values only: in a
  // subgraph, those of the values around it count as unknown.
  KnownTypes own = getKnownTypes(graph);
  auto freshName = [&](const std::string &base, llvm::StringRef suffix) {
    std::string name = (base + "." + suffix).str();
    for (int i = 1; names.contains(name); ++i)
      name = (base + "." + suffix + "." + llvm::Twine(i)).str();
    names.insert(name);
    return name;
  };

  google::protobuf::RepeatedPtrField<onnx::NodeProto> rewritten;
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    for (onnx::AttributeProto &attribute : *node.mutable_attribute()) {
      if (attribute.has_g())
        prepareGraph(*attribute.mutable_g(), fromVersion, types, names);
      for (onnx::GraphProto &nested : *attribute.mutable_graphs())
        prepareGraph(nested, fromVersion, types, names);
    }
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    const std::string &type = node.op_type();
    if (defaultDomain && type == "Pad" && fromVersion < 11) {
      // The converter reads the value of constant padding only.
      bool hasValue = false, constant = true;
      for (const onnx::AttributeProto &attribute : node.attribute()) {
        hasValue |= attribute.name() == "value";
        if (attribute.name() == "mode")
          constant = attribute.s() == "constant";
      }
      if (!hasValue && constant) {
        onnx::AttributeProto *value = node.add_attribute();
        value->set_name("value");
        value->set_type(onnx::AttributeProto::FLOAT);
        value->set_f(0.0f);
      }
    }
    bool flattens =
        defaultDomain && fromVersion < 13 &&
        (type == "Softmax" || type == "LogSoftmax" || type == "Hardmax") &&
        node.input_size() == 1 && node.output_size() == 1;
    auto ranked = flattens ? own.find(node.input(0)) : own.end();
    if (!flattens || (ranked != own.end() && ranked->second.second >= 0)) {
      *rewritten.Add() = std::move(node);
      continue;
    }
    // x -> Flatten(x, axis) -> op(axis = 1) -> Reshape(Shape(x)).
    int64_t axis = 1;
    for (const onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == "axis")
        axis = attribute.i();
    const std::string input = node.input(0), output = node.output(0);
    std::string base = node.name().empty() ? output : node.name();
    std::string shape = freshName(output, "shape");
    std::string flat = freshName(output, "flat");
    std::string flatResult = freshName(output, "flat_" + type);
    onnx::NodeProto &shapeNode = *rewritten.Add();
    shapeNode.set_op_type("Shape");
    shapeNode.set_name(freshName(base, "shape"));
    shapeNode.add_input(input);
    shapeNode.add_output(shape);
    onnx::NodeProto &flatten = *rewritten.Add();
    flatten.set_op_type("Flatten");
    flatten.set_name(freshName(base, "flatten"));
    flatten.add_input(input);
    flatten.add_output(flat);
    onnx::AttributeProto &flattenAxis = *flatten.add_attribute();
    flattenAxis.set_name("axis");
    flattenAxis.set_type(onnx::AttributeProto::INT);
    flattenAxis.set_i(axis);
    onnx::NodeProto &op = *rewritten.Add();
    op = node;
    op.set_input(0, flat);
    op.set_output(0, flatResult);
    op.clear_attribute();
    onnx::AttributeProto &opAxis = *op.add_attribute();
    opAxis.set_name("axis");
    opAxis.set_type(onnx::AttributeProto::INT);
    opAxis.set_i(1);
    onnx::NodeProto &reshape = *rewritten.Add();
    reshape.set_op_type("Reshape");
    reshape.set_name(freshName(base, "reshape"));
    reshape.add_input(flatResult);
    reshape.add_input(shape);
    reshape.add_output(output);
    // The converter's adapter needs the rank of the op's input: Flatten's
    // result is 2-D whatever shape inference knows of x.
    int32_t element = onnx::TensorProto::FLOAT;
    if (auto known = types.find(input);
        known != types.end() && known->second.first)
      element = known->second.first;
    onnx::ValueInfoProto &info = *graph.add_value_info();
    info.set_name(flat);
    onnx::TypeProto_Tensor &tensor =
        *info.mutable_type()->mutable_tensor_type();
    tensor.set_elem_type(element);
    tensor.mutable_shape()->add_dim();
    tensor.mutable_shape()->add_dim();
  }
  graph.mutable_node()->Swap(&rewritten);
}
