//===- FoldConstantIfs.cpp - Ifs on constants replaced by their branch ---===//
//
// An If whose condition is an initializer or a Constant node is replaced,
// before the checker and shape inference run, by the nodes of the branch
// it takes (their names made fresh: a branch's names need only be unique
// inside it), and Identity nodes that give its outputs the If's names.
// The other branch is never compiled: it may hold ops Kiln does not
// convert.
//
//===----------------------------------------------------------------------===//

#include "Subgraphs.h"
#include "TensorProto.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <optional>

using namespace kiln;
using namespace kiln::onnx_plugin;

/// The value of a one-element BOOL tensor.
static std::optional<bool> readCondition(const onnx::TensorProto &tensor) {
  if (tensor.data_type() != onnx::TensorProto::BOOL)
    return std::nullopt;
  for (int64_t dim : tensor.dims())
    if (dim != 1)
      return std::nullopt;
  std::string bytes, error;
  if (!decodeTensorBytes(tensor, bytes, error) || bytes.size() != 1)
    return std::nullopt;
  return bytes[0] != 0;
}

namespace {
/// Folds the constant Ifs of one graph, whose enclosing graphs' constant
/// conditions are `outer`.
class IfFolder {
public:
  /// `names`: every name the model uses, so that the values a folded
  /// branch brings along get fresh ones (its names need only be unique
  /// inside it: the other branch, or a loop body, may use them too).
  IfFolder(onnx::GraphProto &graph, const llvm::StringMap<bool> &outer,
           llvm::StringSet<> &names)
      : graph(graph), known(outer), names(names) {
    for (const onnx::TensorProto &tensor : graph.initializer())
      if (std::optional<bool> value = readCondition(tensor))
        known[tensor.name()] = *value;
  }

  bool run() {
    google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
    nodes.Swap(graph.mutable_node());
    for (onnx::NodeProto &node : nodes)
      emit(std::move(node));
    return changed;
  }

private:
  void emit(onnx::NodeProto node) {
    if (isDefaultDomain(node) && node.op_type() == "Constant" &&
        node.output_size() == 1)
      if (const onnx::AttributeProto *value = findAttribute(node, "value"))
        if (std::optional<bool> condition = readCondition(value->t()))
          known[node.output(0)] = *condition;
    auto condition =
        node.input_size() == 1 ? known.find(node.input(0)) : known.end();
    const onnx::AttributeProto *branch = nullptr;
    if (isDefaultDomain(node) && node.op_type() == "If" &&
        condition != known.end())
      branch = findAttribute(node,
                             condition->second ? "then_branch" : "else_branch");
    if (!branch || branch->type() != onnx::AttributeProto::GRAPH ||
        branch->g().output_size() != node.output_size()) {
      // Ifs inside other nodes' subgraphs fold too.
      for (onnx::AttributeProto &attribute : *node.mutable_attribute()) {
        if (attribute.has_g())
          changed |= IfFolder(*attribute.mutable_g(), known, names).run();
        for (onnx::GraphProto &nested : *attribute.mutable_graphs())
          changed |= IfFolder(nested, known, names).run();
      }
      *graph.add_node() = std::move(node);
      return;
    }
    changed = true;
    onnx::GraphProto taken = branch->g();
    renameLocals(taken, node.name().empty() ? "if" : node.name());
    for (onnx::TensorProto &tensor : *taken.mutable_initializer()) {
      if (std::optional<bool> value = readCondition(tensor))
        known[tensor.name()] = *value;
      *graph.add_initializer() = std::move(tensor);
    }
    for (onnx::NodeProto &inner : *taken.mutable_node())
      emit(std::move(inner));
    for (auto [output, result] : llvm::zip(taken.output(), node.output())) {
      if (result.empty())
        continue;
      onnx::NodeProto &identity = *graph.add_node();
      identity.set_op_type("Identity");
      identity.set_name(node.name() + "." + result);
      identity.add_input(output.name());
      identity.add_output(result);
    }
  }

  /// Gives the values `branch` defines (its initializers, its nodes'
  /// outputs) fresh names, and its reads of them (in graphs nested in it
  /// too) and its outputs the same.
  void renameLocals(onnx::GraphProto &branch, const std::string &prefix) {
    llvm::StringMap<std::string> renamed;
    auto fresh = [&](const std::string &name) {
      std::string base = prefix + "." + name, candidate = base;
      for (int i = 1; names.contains(candidate); ++i)
        candidate = base + "." + std::to_string(i);
      names.insert(candidate);
      renamed[name] = candidate;
      return candidate;
    };
    for (onnx::TensorProto &tensor : *branch.mutable_initializer())
      tensor.set_name(fresh(tensor.name()));
    for (onnx::NodeProto &node : *branch.mutable_node())
      for (std::string &output : *node.mutable_output())
        if (!output.empty())
          output = fresh(output);
    std::function<void(onnx::GraphProto &)> rewriteReads =
        [&](onnx::GraphProto &g) {
          for (onnx::NodeProto &node : *g.mutable_node()) {
            for (std::string &input : *node.mutable_input())
              if (auto it = renamed.find(input); it != renamed.end())
                input = it->second;
            for (onnx::AttributeProto &attribute : *node.mutable_attribute()) {
              if (attribute.has_g())
                rewriteReads(*attribute.mutable_g());
              for (onnx::GraphProto &nested : *attribute.mutable_graphs())
                rewriteReads(nested);
            }
          }
          for (onnx::ValueInfoProto &output : *g.mutable_output())
            if (auto it = renamed.find(output.name()); it != renamed.end())
              output.set_name(it->second);
        };
    rewriteReads(branch);
  }

  onnx::GraphProto &graph;
  llvm::StringMap<bool> known;
  llvm::StringSet<> &names;
  bool changed = false;
};
} // namespace

void onnx_plugin::collectNames(const onnx::GraphProto &graph,
                               llvm::StringSet<> &names) {
  for (const onnx::ValueInfoProto &info : graph.input())
    names.insert(info.name());
  for (const onnx::ValueInfoProto &info : graph.value_info())
    names.insert(info.name());
  for (const onnx::ValueInfoProto &info : graph.output())
    names.insert(info.name());
  for (const onnx::TensorProto &tensor : graph.initializer())
    names.insert(tensor.name());
  for (const onnx::NodeProto &node : graph.node()) {
    names.insert(node.name());
    for (const std::string &name : node.input())
      names.insert(name);
    for (const std::string &name : node.output())
      names.insert(name);
    for (const onnx::AttributeProto &attribute : node.attribute()) {
      if (attribute.has_g())
        collectNames(attribute.g(), names);
      for (const onnx::GraphProto &nested : attribute.graphs())
        collectNames(nested, names);
    }
  }
}

bool onnx_plugin::foldConstantIfs(onnx::ModelProto &model) {
  llvm::StringSet<> names;
  collectNames(model.graph(), names);
  return IfFolder(*model.mutable_graph(), {}, names).run();
}
