//===- Subgraphs.h - If, Loop and Scan bodies at import ---------*- C++ -*-===//
//
// See Subgraphs.cpp and FoldConstantIfs.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_SUBGRAPHS_H
#define KILN_PLUGINS_ONNX_SUBGRAPHS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <onnx/onnx_pb.h>

#include <memory>
#include <vector>

namespace kiln::onnx_plugin {

/// Whether `node` is of the default domain ("" or "ai.onnx").
bool isDefaultDomain(const onnx::NodeProto &node);

/// `node`'s attribute `name`, or null.
const onnx::AttributeProto *findAttribute(const onnx::NodeProto &node,
                                          llvm::StringRef name);

/// Adds every name `graph` and the graphs nested in it use (values and
/// nodes) to `names`: where rewrites find fresh ones.
void collectNames(const onnx::GraphProto &graph, llvm::StringSet<> &names);

/// Replaces every If of `model`'s graph whose condition is a constant (an
/// initializer or a Constant node) by the nodes of the branch it takes,
/// whose outputs Identity nodes give the If's names. True when it changed
/// the graph.
bool foldConstantIfs(onnx::ModelProto &model);

/// The type of an initializer: its element type and dims.
onnx::TypeProto getInitializerType(const onnx::TensorProto &tensor);

/// The types of one subgraph's values, inferred by ONNX's shape inference
/// on a model made of the subgraph alone, whose inputs are the subgraph's
/// (typed from the node's inputs) and the outer values it reads (small
/// constants among them as initializers, which inference reads: the axes
/// of an Unsqueeze).
struct SubgraphTypes {
  /// That model: it owns the types below.
  std::unique_ptr<onnx::ModelProto> model;
  /// The subgraph's inputs, intermediate values and outputs by name.
  llvm::StringMap<const onnx::TypeProto *> types;
  /// The types of the subgraph's inputs, in order.
  llvm::SmallVector<const onnx::TypeProto *> inputs;
  /// For Loop and Scan, the types of the node's outputs, derived from the
  /// body (ONNX 1.12's inference types a loop-carried value from its first
  /// iteration, though it may change shape from one to the next); empty
  /// for If, whose types shape inference gives right.
  std::vector<onnx::TypeProto> nodeOutputs;
};

/// What the importer knows of a value of the enclosing graphs: its type,
/// and its value when it is a constant (an initializer, a Constant node);
/// null when nothing.
struct OuterValues {
  llvm::function_ref<const onnx::TypeProto *(llvm::StringRef name)> type;
  llvm::function_ref<const onnx::TensorProto *(llvm::StringRef name)> constant;
};

/// Infers the types of `graph`, attribute `attribute` of `node` (an If, a
/// Loop or a Scan) in `model`. A Loop's or Scan's loop-carried values get
/// the shape that holds in every iteration: dims that change become
/// dynamic. The error names the node and the attribute.
llvm::Expected<SubgraphTypes>
inferSubgraph(const onnx::ModelProto &model, const onnx::NodeProto &node,
              llvm::StringRef nodeName, const onnx::AttributeProto &attribute,
              OuterValues outer);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_SUBGRAPHS_H
