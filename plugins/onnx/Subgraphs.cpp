//===- Subgraphs.cpp - If, Loop and Scan bodies at import -----------------===//
//
// ONNX 1.12's shape inference looks into the subgraphs of If, Loop and
// Scan to type the node's outputs, but keeps nothing of what it found
// inside them. The importer needs a type for every value of a subgraph,
// so each subgraph is inferred again as a model of its own: its inputs
// typed from the node's inputs, the values it reads from enclosing graphs
// made inputs too. A loop body runs that to a fixed point: a loop-carried
// value whose shape changes between iterations (a growing concatenation)
// keeps only the dims that do not change.
//
// Ifs whose condition is a constant are folded before any of that
// (FoldConstantIfs.cpp).
//
//===----------------------------------------------------------------------===//

#include "Subgraphs.h"
#include "CheckModel.h"
#include "InferNewOps.h"
#include "TensorProto.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <functional>
#include <optional>

using namespace kiln;
using namespace kiln::onnx_plugin;

bool onnx_plugin::isDefaultDomain(const onnx::NodeProto &node) {
  return node.domain().empty() || node.domain() == "ai.onnx";
}

const onnx::AttributeProto *
onnx_plugin::findAttribute(const onnx::NodeProto &node, llvm::StringRef name) {
  for (const onnx::AttributeProto &attribute : node.attribute())
    if (attribute.name() == name)
      return &attribute;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Types of a subgraph's values
//===----------------------------------------------------------------------===//

/// The names `graph` (and the graphs nested in it) reads without defining
/// them, in the order first read: values of enclosing graphs.
static llvm::SmallVector<std::string>
getOuterNames(const onnx::GraphProto &graph) {
  llvm::StringSet<> defined;
  llvm::SetVector<llvm::StringRef> read;
  std::function<void(const onnx::GraphProto &)> walk =
      [&](const onnx::GraphProto &g) {
        for (const onnx::ValueInfoProto &input : g.input())
          defined.insert(input.name());
        for (const onnx::TensorProto &tensor : g.initializer())
          defined.insert(tensor.name());
        for (const onnx::NodeProto &node : g.node()) {
          for (const std::string &input : node.input())
            if (!input.empty())
              read.insert(input);
          for (const onnx::AttributeProto &attribute : node.attribute()) {
            if (attribute.has_g())
              walk(attribute.g());
            for (const onnx::GraphProto &nested : attribute.graphs())
              walk(nested);
          }
          for (const std::string &output : node.output())
            defined.insert(output);
        }
        for (const onnx::ValueInfoProto &output : g.output())
          read.insert(output.name());
      };
  walk(graph);
  llvm::SmallVector<std::string> outer;
  for (llvm::StringRef name : read)
    if (!defined.contains(name))
      outer.push_back(name.str());
  return outer;
}

onnx::TypeProto
onnx_plugin::getInitializerType(const onnx::TensorProto &tensor) {
  onnx::TypeProto type;
  onnx::TypeProto_Tensor &tensorType = *type.mutable_tensor_type();
  tensorType.set_elem_type(tensor.data_type());
  onnx::TensorShapeProto &shape = *tensorType.mutable_shape();
  for (int64_t dim : tensor.dims())
    shape.add_dim()->set_dim_value(dim);
  return type;
}

static onnx::TypeProto makeScalarType(int32_t elementType) {
  onnx::TypeProto type;
  type.mutable_tensor_type()->set_elem_type(elementType);
  type.mutable_tensor_type()->mutable_shape();
  return type;
}

/// `type` with dim `axis` removed (a scan input's element), or inserted
/// (unknown unless `size` is given: a scan output).
static onnx::TypeProto removeDim(onnx::TypeProto type, int64_t axis) {
  onnx::TypeProto_Tensor &tensor = *type.mutable_tensor_type();
  if (tensor.has_shape() && axis >= 0 && axis < tensor.shape().dim_size())
    tensor.mutable_shape()->mutable_dim()->erase(
        tensor.mutable_shape()->mutable_dim()->begin() + axis);
  return type;
}

static onnx::TypeProto insertDim(onnx::TypeProto type, int64_t axis,
                                 std::optional<int64_t> size) {
  onnx::TypeProto_Tensor &tensor = *type.mutable_tensor_type();
  if (!tensor.has_shape())
    return type;
  auto *dims = tensor.mutable_shape()->mutable_dim();
  axis = std::clamp<int64_t>(axis, 0, dims->size());
  onnx::TensorShapeProto::Dimension dim;
  if (size)
    dim.set_dim_value(*size);
  dims->Add(std::move(dim));
  // Rotate the new dim from the end into place.
  for (int64_t i = dims->size() - 1; i > axis; --i)
    dims->SwapElements(static_cast<int>(i), static_cast<int>(i - 1));
  return type;
}

static bool sameDim(const onnx::TensorShapeProto::Dimension &a,
                    const onnx::TensorShapeProto::Dimension &b) {
  if (a.has_dim_value() && b.has_dim_value())
    return a.dim_value() == b.dim_value();
  return a.has_dim_param() && b.has_dim_param() &&
         a.dim_param() == b.dim_param();
}

/// A type both `a` and `b` have: dims on which they differ unknown, no
/// shape when their ranks differ.
static onnx::TypeProto mergeTypes(const onnx::TypeProto &a,
                                  const onnx::TypeProto &b) {
  onnx::TypeProto merged = a;
  if (!a.has_tensor_type() || !b.has_tensor_type())
    return merged;
  const onnx::TypeProto_Tensor &left = a.tensor_type(),
                               &right = b.tensor_type();
  onnx::TypeProto_Tensor &tensor = *merged.mutable_tensor_type();
  if (!left.has_shape())
    return merged;
  if (!right.has_shape() ||
      left.shape().dim_size() != right.shape().dim_size()) {
    tensor.clear_shape();
    return merged;
  }
  for (int i = 0; i < left.shape().dim_size(); ++i)
    if (!sameDim(left.shape().dim(i), right.shape().dim(i)))
      tensor.mutable_shape()->mutable_dim(i)->Clear();
  return merged;
}

static bool sameType(const onnx::TypeProto &a, const onnx::TypeProto &b) {
  return a.SerializeAsString() == b.SerializeAsString();
}

namespace {
/// Infers one subgraph of one node.
class SubgraphInference {
public:
  SubgraphInference(const onnx::ModelProto &model, const onnx::NodeProto &node,
                    llvm::StringRef nodeName,
                    const onnx::AttributeProto &attribute, OuterValues outer)
      : model(model), node(node), attribute(attribute), graph(attribute.g()),
        outer(outer),
        what(("the subgraph '" + attribute.name() + "' of node '" + nodeName +
              "' (" + node.op_type() + ")")
                 .str()) {}

  llvm::Expected<SubgraphTypes> run();

private:
  llvm::Error fail(const llvm::Twine &message) {
    return llvm::createStringError(what + ": " + message);
  }
  /// The type of the node's input `i`.
  llvm::Expected<onnx::TypeProto> getInputType(int i);
  /// The declared type of the graph's input `i` when it has a shape, else
  /// a scalar of `elementType`.
  onnx::TypeProto getScalarInputType(int i, int32_t elementType);
  /// Infers the graph with its inputs of `inputTypes`.
  llvm::Expected<SubgraphTypes>
  infer(llvm::ArrayRef<onnx::TypeProto> inputTypes);
  /// Infers a loop body whose inputs `first` to `first + carried.size()`
  /// and outputs `firstOutput` on are loop-carried, to a fixed point;
  /// `carried` ends with the types that hold in every iteration.
  llvm::Expected<SubgraphTypes>
  inferLoop(std::vector<onnx::TypeProto> inputTypes, int first, int count,
            int firstOutput);
  llvm::Expected<SubgraphTypes> inferLoopNode();
  llvm::Expected<SubgraphTypes> inferScanNode();

  const onnx::ModelProto &model;
  const onnx::NodeProto &node;
  const onnx::AttributeProto &attribute;
  const onnx::GraphProto &graph;
  OuterValues outer;
  std::string what;
};
} // namespace

llvm::Expected<onnx::TypeProto> SubgraphInference::getInputType(int i) {
  if (i >= node.input_size() || node.input(i).empty())
    return fail("the node's input " + llvm::Twine(i) + " is not given");
  const onnx::TypeProto *type = outer.type(node.input(i));
  if (!type || !type->has_tensor_type())
    return fail("ONNX's shape inference gives no tensor type for the "
                "node's input '" +
                node.input(i) + "'");
  return *type;
}

onnx::TypeProto SubgraphInference::getScalarInputType(int i,
                                                      int32_t elementType) {
  const onnx::TypeProto &declared = graph.input(i).type();
  if (declared.has_tensor_type() && declared.tensor_type().has_shape() &&
      declared.tensor_type().elem_type() == elementType)
    return declared;
  return makeScalarType(elementType);
}

llvm::Expected<SubgraphTypes>
SubgraphInference::infer(llvm::ArrayRef<onnx::TypeProto> inputTypes) {
  SubgraphTypes result;
  result.model = std::make_unique<onnx::ModelProto>();
  onnx::ModelProto &made = *result.model;
  made.set_ir_version(std::max<int64_t>(model.ir_version(), 4));
  *made.mutable_opset_import() = model.opset_import();
  onnx::GraphProto &copy = *made.mutable_graph();
  copy = graph;
  for (auto [input, type] : llvm::zip(*copy.mutable_input(), inputTypes))
    *input.mutable_type() = type;
  for (const std::string &name : getOuterNames(graph)) {
    if (const onnx::TensorProto *constant = outer.constant(name)) {
      onnx::TensorProto &initializer = *copy.add_initializer();
      initializer = *constant;
      initializer.set_name(name);
      continue;
    }
    const onnx::TypeProto *type = outer.type(name);
    if (!type)
      return fail("it reads '" + name +
                  "', which no enclosing graph defines (or whose type ONNX's "
                  "shape inference did not find)");
    onnx::ValueInfoProto &input = *copy.add_input();
    input.set_name(name);
    *input.mutable_type() = *type;
  }
  if (llvm::Error failure = inferGraphShapes(made))
    return fail(llvm::toString(std::move(failure)));
  // The ops of newer opsets ONNX 1.12 does not know, typed by Kiln.
  if (llvm::Error failure = inferNewOps(made))
    return fail(llvm::toString(std::move(failure)));
  // The subgraph's initializers, for the graphs nested in it.
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    onnx::ValueInfoProto &info = *copy.add_value_info();
    info.set_name(tensor.name());
    *info.mutable_type() = getInitializerType(tensor);
  }
  for (int i = 0; i < graph.input_size(); ++i) {
    result.types[copy.input(i).name()] = &copy.input(i).type();
    result.inputs.push_back(&copy.input(i).type());
  }
  for (const onnx::ValueInfoProto &info : copy.value_info())
    result.types[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : copy.output())
    if (info.has_type())
      result.types[info.name()] = &info.type();
  return result;
}

llvm::Expected<SubgraphTypes>
SubgraphInference::inferLoop(std::vector<onnx::TypeProto> inputTypes, int first,
                             int count, int firstOutput) {
  // A shape changes in a dim at most once before that dim is unknown; the
  // rank once before the shape is: a few rounds settle every value.
  for (int round = 0;; ++round) {
    llvm::Expected<SubgraphTypes> inferred = infer(inputTypes);
    if (!inferred)
      return inferred.takeError();
    bool changed = false;
    for (int k = 0; k < count; ++k) {
      const std::string &output = graph.output(firstOutput + k).name();
      const onnx::TypeProto *next = inferred->types.lookup(output);
      if (!next || !next->has_tensor_type())
        return fail("ONNX's shape inference gives no tensor type for the "
                    "loop-carried output '" +
                    output + "'");
      onnx::TypeProto &current = inputTypes[first + k];
      if (next->tensor_type().elem_type() != current.tensor_type().elem_type())
        return fail(
            "the loop-carried value '" + output + "' has element type " +
            getDataTypeName(next->tensor_type().elem_type()) +
            " after an iteration and " +
            getDataTypeName(current.tensor_type().elem_type()) + " before it");
      onnx::TypeProto merged = mergeTypes(current, *next);
      if (!sameType(merged, current)) {
        current = std::move(merged);
        changed = true;
      }
    }
    if (!changed || round == 8)
      return inferred;
  }
}

llvm::Expected<SubgraphTypes> SubgraphInference::inferLoopNode() {
  // Inputs (M, cond, v...), the body's (iteration, cond, v...), its
  // outputs (cond, v..., scan...).
  int carried = node.input_size() - 2;
  if (carried < 0)
    return fail("a Loop has its trip count and condition (either may be "
                "empty) before its loop-carried values; it has " +
                llvm::Twine(node.input_size()) + " inputs");
  if (graph.input_size() != 2 + carried)
    return fail("the body takes " + llvm::Twine(graph.input_size()) +
                " inputs; a Loop with " + llvm::Twine(carried) +
                " loop-carried values needs " + llvm::Twine(2 + carried) +
                " (the iteration number, the condition, the values)");
  if (graph.output_size() < 1 + carried)
    return fail("the body returns " + llvm::Twine(graph.output_size()) +
                " outputs; a Loop with " + llvm::Twine(carried) +
                " loop-carried values needs at least " +
                llvm::Twine(1 + carried) + " (the condition, the values)");
  if (node.output_size() != graph.output_size() - 1)
    return fail("the node has " + llvm::Twine(node.output_size()) +
                " outputs, its body " + llvm::Twine(graph.output_size()) +
                "; a Loop has one output per body output but the condition");
  std::vector<onnx::TypeProto> inputs;
  inputs.push_back(getScalarInputType(0, onnx::TensorProto::INT64));
  inputs.push_back(getScalarInputType(1, onnx::TensorProto::BOOL));
  for (int k = 0; k < carried; ++k) {
    llvm::Expected<onnx::TypeProto> type = getInputType(2 + k);
    if (!type)
      return type.takeError();
    inputs.push_back(*type);
  }
  llvm::Expected<SubgraphTypes> inferred =
      inferLoop(inputs, /*first=*/2, carried, /*firstOutput=*/1);
  if (!inferred)
    return inferred.takeError();
  for (int k = 0; k < carried; ++k)
    inferred->nodeOutputs.push_back(*inferred->inputs[2 + k]);
  for (int j = 1 + carried; j < graph.output_size(); ++j) {
    const onnx::TypeProto *element =
        inferred->types.lookup(graph.output(j).name());
    if (!element || !element->has_tensor_type())
      return fail("ONNX's shape inference gives no tensor type for the scan "
                  "output '" +
                  graph.output(j).name() + "'");
    inferred->nodeOutputs.push_back(insertDim(*element, 0, std::nullopt));
  }
  return inferred;
}

/// The INTS attribute `name` of `node`, `count` zeros when absent.
static std::vector<int64_t> getAxes(const onnx::NodeProto &node,
                                    llvm::StringRef name, int count) {
  std::vector<int64_t> axes(count, 0);
  if (const onnx::AttributeProto *attribute = findAttribute(node, name))
    for (int i = 0; i < std::min(count, attribute->ints_size()); ++i)
      axes[i] = attribute->ints(i);
  return axes;
}

llvm::Expected<SubgraphTypes> SubgraphInference::inferScanNode() {
  const onnx::AttributeProto *scanInputs =
      findAttribute(node, "num_scan_inputs");
  if (!scanInputs)
    return fail("a Scan needs the attribute 'num_scan_inputs'");
  int scanned = static_cast<int>(scanInputs->i());
  int states = node.input_size() - scanned;
  if (scanned < 1 || states < 0)
    return fail("num_scan_inputs is " + llvm::Twine(scanned) +
                "; it must be between 1 and the node's " +
                llvm::Twine(node.input_size()) + " inputs");
  if (graph.input_size() != node.input_size())
    return fail("the body takes " + llvm::Twine(graph.input_size()) +
                " inputs; the node gives " + llvm::Twine(node.input_size()));
  if (graph.output_size() != node.output_size() || graph.output_size() < states)
    return fail("the body returns " + llvm::Twine(graph.output_size()) +
                " outputs; the node has " + llvm::Twine(node.output_size()) +
                " and " + llvm::Twine(states) + " states");
  std::vector<int64_t> inputAxes = getAxes(node, "scan_input_axes", scanned);
  std::vector<onnx::TypeProto> inputs;
  std::optional<int64_t> steps;
  for (int i = 0; i < node.input_size(); ++i) {
    llvm::Expected<onnx::TypeProto> type = getInputType(i);
    if (!type)
      return type.takeError();
    if (i < states) {
      inputs.push_back(*type);
      continue;
    }
    int64_t axis = inputAxes[i - states];
    if (!type->tensor_type().has_shape())
      return fail("the rank of the scan input '" + node.input(i) +
                  "' is unknown");
    int rank = type->tensor_type().shape().dim_size();
    if (axis < -rank || axis >= rank)
      return fail("scan_input_axes gives axis " + llvm::Twine(axis) +
                  " for the scan input '" + node.input(i) + "' of rank " +
                  llvm::Twine(rank));
    axis = axis < 0 ? axis + rank : axis;
    const onnx::TensorShapeProto::Dimension &dim =
        type->tensor_type().shape().dim(static_cast<int>(axis));
    if (i == states && dim.has_dim_value())
      steps = dim.dim_value();
    inputs.push_back(removeDim(*type, axis));
  }
  llvm::Expected<SubgraphTypes> inferred =
      inferLoop(inputs, /*first=*/0, states, /*firstOutput=*/0);
  if (!inferred)
    return inferred.takeError();
  for (int k = 0; k < states; ++k)
    inferred->nodeOutputs.push_back(*inferred->inputs[k]);
  std::vector<int64_t> outputAxes =
      getAxes(node, "scan_output_axes", graph.output_size() - states);
  for (int j = states; j < graph.output_size(); ++j) {
    const onnx::TypeProto *element =
        inferred->types.lookup(graph.output(j).name());
    if (!element || !element->has_tensor_type() ||
        !element->tensor_type().has_shape())
      return fail("ONNX's shape inference gives no shape for the scan "
                  "output '" +
                  graph.output(j).name() + "'");
    int rank = element->tensor_type().shape().dim_size() + 1;
    int64_t axis = outputAxes[j - states];
    if (axis < -rank || axis >= rank)
      return fail("scan_output_axes gives axis " + llvm::Twine(axis) +
                  " for the scan output '" + graph.output(j).name() +
                  "' of rank " + llvm::Twine(rank));
    inferred->nodeOutputs.push_back(
        insertDim(*element, axis < 0 ? axis + rank : axis, steps));
  }
  return inferred;
}

llvm::Expected<SubgraphTypes> SubgraphInference::run() {
  if (attribute.type() != onnx::AttributeProto::GRAPH)
    return fail("a list of graphs, which no op Kiln reads takes");
  if (!isDefaultDomain(node))
    return fail("Kiln reads the subgraphs of If, Loop and Scan only");
  if (node.op_type() == "If") {
    if (graph.input_size() != 0)
      return fail("a branch of an If takes no inputs; this one takes " +
                  llvm::Twine(graph.input_size()));
    if (graph.output_size() != node.output_size())
      return fail("the branch returns " + llvm::Twine(graph.output_size()) +
                  " outputs; the node has " + llvm::Twine(node.output_size()));
    return infer({});
  }
  if (node.op_type() == "Loop")
    return inferLoopNode();
  if (node.op_type() == "Scan")
    return inferScanNode();
  return fail("Kiln reads the subgraphs of If, Loop and Scan only");
}

llvm::Expected<SubgraphTypes> onnx_plugin::inferSubgraph(
    const onnx::ModelProto &model, const onnx::NodeProto &node,
    llvm::StringRef nodeName, const onnx::AttributeProto &attribute,
    OuterValues outer) {
  return SubgraphInference(model, node, nodeName, attribute, outer).run();
}
