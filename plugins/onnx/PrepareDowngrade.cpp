//===- PrepareDowngrade.cpp - Opsets 18 to 21 in opset 17's forms ---------===//
//
// Debian's ONNX library (1.12) knows opsets up to 17: its checker and
// shape inference refuse the ops and forms newer opsets added. Kiln reads
// opsets 18 to 21 by rewriting each node that changed into a node, or a
// few nodes, of opset 17 that compute the same, before that library sees
// the model; nodes that did not change stay. What has no such form is an
// error naming the node and what it uses.
//
//   Reduce* (18)      axes from an input (a constant) to the attribute;
//                     noop_with_empty_axes without axes to each element
//                     reduced alone (|x|, log x, x squared or x)
//   Split (18)        num_outputs to a split input computed from the
//                     input's shape (the last part smaller, as 18 says)
//   Pad (18)          axes (a constant) spelled out into pads for every
//                     dim (scattered at run time where the rank is not
//                     known yet)
//   CenterCropPad, Col2Im (18), DeformConv (19), AffineGrid (20)
//                     written by WriteNewOps.cpp
//   Resize (18)       antialias 0, keep_aspect_ratio_policy "stretch" and
//                     axes over every dim are the defaults 17 has;
//                     antialias 1 written by WriteAntialiasResize.cpp
//   AveragePool (19)  dilations of 1; LpPool (18) ceil_mode 0
//   Cast (19)         saturate, which only float8 types read
//   DFT (20)          axis from an input (a constant) to the attribute
//   GridSample (20)   modes "linear" and "cubic" as "bilinear", "bicubic"
//   Mish (18), Gelu (20), GroupNormalization (18, 21)
//                     their definitions, in opset 17's ops
//   QuantizeLinear, DequantizeLinear (21): block_size 0, output_dtype 0
//   BitwiseAnd, Or, Xor, Not (18): moved into Kiln's domain for ops ONNX
//                     1.12 does not know, typed by InferNewOps.cpp
//
//===----------------------------------------------------------------------===//

#include "PrepareDowngrade.h"
#include "InferNewOps.h"
#include "NodeWriter.h"
#include "Subgraphs.h"
#include "TensorProto.h"
#include "WriteNewOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <optional>

using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
class Downgrader {
public:
  Downgrader(onnx::ModelProto &model, int64_t version)
      : model(model), version(version) {}

  llvm::Error run();

private:
  llvm::Error rewriteGraph(onnx::GraphProto &graph);
  /// Appends `node` in opset 17's form to `out`.
  llvm::Error rewrite(onnx::NodeProto node,
                      google::protobuf::RepeatedPtrField<onnx::NodeProto> &out,
                      onnx::GraphProto &graph);

  llvm::Error fail(const onnx::NodeProto &node, const llvm::Twine &why) {
    NodeWriter::NodeList none;
    return NodeWriter(names, none, node).fail(version, why);
  }
  /// The integers of `name` when it is a constant (an initializer or the
  /// output of a Constant node) of INT64 or INT32.
  std::optional<std::vector<int64_t>> getConstantInts(const std::string &name);
  /// The rank `name` is declared or known with; -1 when unknown.
  int64_t getRank(const std::string &name);

  onnx::ModelProto &model;
  int64_t version;
  llvm::StringSet<> names;
  /// Initializers (in the graph, which stays put) and copies of the
  /// values of Constant nodes (which move as the graph is rewritten).
  llvm::StringMap<const onnx::TensorProto *> constants;
  std::deque<onnx::TensorProto> constantValues;
  llvm::StringMap<int64_t> ranks;
};
} // namespace

/// Keeps the first `count` inputs of `node`.
static void truncateInputs(onnx::NodeProto &node, int count) {
  while (node.input_size() > count)
    node.mutable_input()->RemoveLast();
}

std::optional<std::vector<int64_t>>
Downgrader::getConstantInts(const std::string &name) {
  const onnx::TensorProto *tensor = constants.lookup(name);
  if (!tensor || (tensor->data_type() != onnx::TensorProto::INT64 &&
                  tensor->data_type() != onnx::TensorProto::INT32))
    return std::nullopt;
  std::string bytes, error;
  if (!decodeTensorBytes(*tensor, bytes, error))
    return std::nullopt;
  bool wide = tensor->data_type() == onnx::TensorProto::INT64;
  size_t width = wide ? 8 : 4;
  std::vector<int64_t> values;
  for (size_t i = 0; i + width <= bytes.size(); i += width) {
    if (wide) {
      int64_t value;
      std::memcpy(&value, bytes.data() + i, 8);
      values.push_back(value);
    } else {
      int32_t value;
      std::memcpy(&value, bytes.data() + i, 4);
      values.push_back(value);
    }
  }
  return values;
}

int64_t Downgrader::getRank(const std::string &name) {
  auto it = ranks.find(name);
  return it == ranks.end() ? -1 : it->second;
}

/// Ops newer than 17 without a form in 17's ops Kiln writes.
static bool isUnsupportedNewOp(llvm::StringRef type) {
  return llvm::is_contained({"ImageDecoder", "RegexFullMatch", "StringConcat",
                             "StringSplit", "OptionalHasElement",
                             "OptionalGetElement"},
                            type);
}

static bool isAxesReduction(llvm::StringRef type) {
  return llvm::is_contained({"ReduceL1", "ReduceL2", "ReduceLogSum",
                             "ReduceLogSumExp", "ReduceMax", "ReduceMean",
                             "ReduceMin", "ReduceProd", "ReduceSumSquare"},
                            type);
}

llvm::Error
Downgrader::rewrite(onnx::NodeProto node,
                    google::protobuf::RepeatedPtrField<onnx::NodeProto> &out,
                    onnx::GraphProto &graph) {
  llvm::StringRef type = node.op_type();
  NodeWriter w(names, out, node);
  auto keep = [&] {
    *out.Add() = std::move(node);
    return llvm::Error::success();
  };
  auto given = [&](int i) { return hasInput(node, i); };
  // What the rewrites below read of the node, before they read it (the
  // model has not been through ONNX's checker yet).
  auto counts = [&](int inputs, int outputs) -> llvm::Error {
    if (node.input_size() >= inputs && node.output_size() >= outputs &&
        llvm::all_of(llvm::seq(0, inputs), [&](int i) { return given(i); }))
      return llvm::Error::success();
    return fail(node, "it needs " + llvm::Twine(inputs) + " input" +
                          (inputs == 1 ? "" : "s") + " and " +
                          llvm::Twine(outputs) + " output" +
                          (outputs == 1 ? "" : "s") + "; it has " +
                          llvm::Twine(node.input_size()) + " and " +
                          llvm::Twine(node.output_size()));
  };
  static const llvm::StringMap<std::pair<int, int>> kCounts = {
      {"Split", {1, 1}},
      {"Pad", {1, 1}},
      {"Resize", {1, 1}},
      {"DFT", {1, 1}},
      {"Mish", {1, 1}},
      {"Gelu", {1, 1}},
      {"GroupNormalization", {3, 1}}};
  if (auto it = kCounts.find(type); it != kCounts.end())
    if (llvm::Error failure = counts(it->second.first, it->second.second))
      return failure;
  if (isAxesReduction(type))
    if (llvm::Error failure = counts(1, 1))
      return failure;

  if (isKilnInferredOp(type)) {
    node.set_domain(kNewOpsDomain.str());
    return keep();
  }
  // What the writers of new ops and forms read of the graph.
  auto constantInts = [&](const std::string &name) {
    return getConstantInts(name);
  };
  auto constantDims =
      [&](const std::string &name) -> std::optional<std::vector<int64_t>> {
    const onnx::TensorProto *tensor = constants.lookup(name);
    if (!tensor)
      return std::nullopt;
    return std::vector<int64_t>(tensor->dims().begin(), tensor->dims().end());
  };
  auto constantFloats =
      [&](const std::string &name) -> std::optional<std::vector<float>> {
    const onnx::TensorProto *tensor = constants.lookup(name);
    std::string bytes, error;
    if (!tensor || tensor->data_type() != onnx::TensorProto::FLOAT ||
        !decodeTensorBytes(*tensor, bytes, error))
      return std::nullopt;
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    return values;
  };
  auto rank = [&](const std::string &name) { return getRank(name); };
  GraphFacts facts{constantInts, constantFloats, constantDims, rank};
  if (hasOpset17Form(type)) {
    return writeNewOp(node, w, facts, version);
  }
  if (isUnsupportedNewOp(type))
    return fail(node, "Kiln reads opsets 18 to 21 by writing their ops in "
                      "opset 17's, and has no such form of " +
                          type + " yet");

  if (isAxesReduction(type)) {
    std::optional<std::vector<int64_t>> axes;
    if (given(1)) {
      axes = getConstantInts(node.input(1));
      if (!axes)
        return fail(node, "its axes (input 1) must be a constant "
                          "(an initializer or a Constant node)");
    }
    bool noop = getIntAttribute(node, "noop_with_empty_axes", 0) != 0;
    removeAttribute(node, "noop_with_empty_axes");
    truncateInputs(node, 1);
    if ((!axes || axes->empty()) && noop) {
      // Each element reduced alone, as ONNX Runtime computes it: |x| for
      // the norms, log x, x squared, x itself for the rest.
      node.clear_attribute();
      if (type == "ReduceL1" || type == "ReduceL2") {
        node.set_op_type("Abs");
      } else if (type == "ReduceLogSum") {
        node.set_op_type("Log");
      } else if (type == "ReduceSumSquare") {
        node.set_op_type("Mul");
        node.add_input(node.input(0));
      } else {
        node.set_op_type("Identity");
      }
      return keep();
    }
    if (axes && !axes->empty())
      setInts(node, "axes", *axes);
    return keep();
  }

  if (type == "Split") {
    onnx::AttributeProto *numOutputs = findAttribute(node, "num_outputs");
    if (!numOutputs)
      return keep();
    int64_t parts = numOutputs->i();
    if (parts < 1 || parts != node.output_size())
      return fail(node, "num_outputs is " + llvm::Twine(parts) +
                            " but it has " + llvm::Twine(node.output_size()) +
                            " outputs");
    removeAttribute(node, "num_outputs");
    if (given(1))
      return keep();
    // split = [c, ..., c, n - c * (parts - 1)], c = ceil(n / parts): shape
    // arithmetic the importer computes when n is known.
    int64_t axis = getIntAttribute(node, "axis", 0);
    std::string shape = w.add("Shape", {node.input(0)});
    std::string size = w.add("Gather", {shape, w.ints({axis}, true)});
    std::string chunk =
        w.add("Div", {w.add("Add", {size, w.ints({parts - 1}, true)}),
                      w.ints({parts}, true)});
    std::string last =
        w.add("Sub", {size, w.add("Mul", {chunk, w.ints({parts - 1}, true)})});
    std::string chunk1 = w.add("Reshape", {chunk, w.ints({1})});
    std::string last1 = w.add("Reshape", {last, w.ints({1})});
    std::vector<std::string> pieces(parts - 1, chunk1);
    pieces.push_back(last1);
    std::string split = w.add("Concat", pieces);
    setInt(w.last(), "axis", 0);
    truncateInputs(node, 1);
    node.add_input(split);
    return keep();
  }

  if (type == "Pad") {
    if (!given(3)) {
      truncateInputs(node, 3);
      return keep();
    }
    std::optional<std::vector<int64_t>> axes = getConstantInts(node.input(3));
    std::optional<std::vector<int64_t>> pads =
        given(1) ? getConstantInts(node.input(1)) : std::nullopt;
    if (!axes || !pads)
      return fail(node, "with axes (input 3), its pads and axes must be "
                        "constants");
    if (pads->size() != 2 * axes->size())
      return fail(node, "it has " + llvm::Twine(pads->size()) + " pads for " +
                            llvm::Twine(axes->size()) +
                            " axes; it needs two per axis");
    std::vector<int64_t> begins(pads->begin(), pads->begin() + axes->size());
    std::vector<int64_t> ends(pads->begin() + axes->size(), pads->end());
    llvm::Expected<std::string> full =
        writeFullPads(w, node.input(0), *axes, getRank(node.input(0)),
                      w.ints(begins), w.ints(ends), version);
    if (!full)
      return full.takeError();
    truncateInputs(node, 3);
    node.set_input(1, *full);
    return keep();
  }

  if (type == "Resize") {
    // Antialias applies to linear and cubic; nearest ignores it.
    bool nearest = getStringAttribute(node, "mode", "nearest") == "nearest";
    if (getIntAttribute(node, "antialias", 0) != 0 && !nearest)
      return writeAntialiasResize(node, w, facts, version);
    removeAttribute(node, "antialias");
    if (onnx::AttributeProto *policy =
            findAttribute(node, "keep_aspect_ratio_policy")) {
      if (policy->s() != "stretch")
        return fail(node, "keep_aspect_ratio_policy '" + policy->s() +
                              "' is not supported (only 'stretch')");
      removeAttribute(node, "keep_aspect_ratio_policy");
    }
    if (onnx::AttributeProto *axes = findAttribute(node, "axes")) {
      int64_t rank = getRank(node.input(0));
      bool all = rank == axes->ints_size();
      for (int i = 0; all && i < axes->ints_size(); ++i)
        all = axes->ints(i) == i || axes->ints(i) == i - rank;
      if (!all)
        return fail(node, "axes over some dims only are not supported");
      removeAttribute(node, "axes");
    }
    return keep();
  }

  if (type == "AveragePool" || type == "LpPool") {
    // Both gained dilations (19 and 18), which 17 has for neither.
    if (onnx::AttributeProto *dilations = findAttribute(node, "dilations")) {
      for (int64_t d : dilations->ints())
        if (d != 1)
          return fail(node, "dilations other than 1 are not supported");
      removeAttribute(node, "dilations");
    }
    if (type == "LpPool") {
      if (getIntAttribute(node, "ceil_mode", 0) != 0)
        return fail(node, "ceil_mode is not supported");
      removeAttribute(node, "ceil_mode");
    }
    return keep();
  }

  if (type == "Cast" || type == "CastLike") {
    removeAttribute(node, "saturate");
    return keep();
  }

  if (type == "DFT" && version >= 20) {
    int64_t axis = -2;
    if (given(2)) {
      std::optional<std::vector<int64_t>> value =
          getConstantInts(node.input(2));
      if (!value || value->size() != 1)
        return fail(node, "its axis (input 2) must be a constant scalar");
      axis = (*value)[0];
    }
    truncateInputs(node, 2);
    setInt(node, "axis", axis);
    return keep();
  }

  if (type == "GridSample" && version >= 20) {
    if (onnx::AttributeProto *mode = findAttribute(node, "mode")) {
      if (mode->s() == "linear")
        mode->set_s("bilinear");
      else if (mode->s() == "cubic")
        mode->set_s("bicubic");
    }
    return keep();
  }

  if (type == "QuantizeLinear" || type == "DequantizeLinear") {
    removeAttribute(node, "saturate"); // float8 only (19)
    if (getIntAttribute(node, "block_size", 0) != 0)
      return fail(node, "blocked quantization (block_size) is not supported");
    removeAttribute(node, "block_size");
    if (getIntAttribute(node, "output_dtype", 0) != 0 && !given(2))
      return fail(node, "output_dtype without a zero point is not supported");
    removeAttribute(node, "output_dtype");
    return keep();
  }

  if (type == "Mish") {
    // x * tanh(softplus(x))
    std::string softplus = w.add("Softplus", {node.input(0)});
    std::string tanh = w.add("Tanh", {softplus});
    w.add("Mul", {node.input(0), tanh}, node.output(0));
    return llvm::Error::success();
  }

  if (type == "Gelu") {
    onnx::AttributeProto *approximate = findAttribute(node, "approximate");
    std::string x = node.input(0);
    std::string inner;
    if (approximate && approximate->s() == "tanh") {
      // tanh(sqrt(2 / pi) * (x + 0.044715 x^3))
      std::string cube = w.add("Mul", {x, w.add("Mul", {x, x})});
      std::string sum =
          w.add("Add", {x, w.add("Mul", {cube, w.floats(x, 0.044715f)})});
      inner = w.add("Tanh",
                    {w.add("Mul", {sum, w.floats(x, 0.7978845608028654f)})});
    } else if (!approximate || approximate->s() == "none") {
      // erf(x / sqrt(2))
      inner =
          w.add("Erf", {w.add("Mul", {x, w.floats(x, 0.7071067811865476f)})});
    } else {
      return fail(node, "approximate '" + approximate->s() +
                            "' is not one of 'none' and 'tanh'");
    }
    // 0.5 x (1 + inner)
    std::string onePlus = w.add("Add", {inner, w.floats(x, 1.0f)});
    std::string half = w.add("Mul", {x, w.floats(x, 0.5f)});
    w.add("Mul", {half, onePlus}, node.output(0));
    return llvm::Error::success();
  }

  if (type == "GroupNormalization") {
    if (!given(1) || !given(2) || node.input_size() != 3)
      return fail(node, "it takes X, scale and bias");
    onnx::AttributeProto *groups = findAttribute(node, "num_groups");
    if (!groups || groups->i() < 1)
      return fail(node, "num_groups must be given and positive");
    float epsilon = 1e-5f;
    if (onnx::AttributeProto *given = findAttribute(node, "epsilon"))
      epsilon = given->f();
    // x as [N, G, rest], normalized over rest, scaled and shifted per
    // group (opset 18) or per channel (21, over x as [N, C, rest]), back
    // to x's shape.
    std::string x = node.input(0);
    std::string shape = w.add("Shape", {x});
    std::string grouped = w.add("Reshape", {x, w.ints({0, groups->i(), -1})});
    std::string mean = w.add("ReduceMean", {grouped});
    setInts(w.last(), "axes", {2});
    std::string centered = w.add("Sub", {grouped, mean});
    std::string squares = w.add("Mul", {centered, centered});
    std::string variance = w.add("ReduceMean", {squares});
    setInts(w.last(), "axes", {2});
    std::string deviation =
        w.add("Sqrt", {w.add("Add", {variance, w.floats(x, epsilon)})});
    std::string normalized = w.add("Div", {centered, deviation});
    std::string scale = node.input(1), bias = node.input(2);
    std::string column = w.ints({-1, 1});
    std::string byChannel;
    if (version >= 21) {
      // [N, C, rest]: the first two dims of x, then the rest.
      std::string leading = w.add("Slice", {shape, w.ints({0}), w.ints({2})});
      std::string channels = w.add("Concat", {leading, w.ints({-1})});
      setInt(w.last(), "axis", 0);
      byChannel = w.add("Reshape", {normalized, channels});
    } else {
      byChannel = normalized;
    }
    std::string scaled =
        w.add("Mul", {byChannel, w.add("Reshape", {scale, column})});
    std::string shifted =
        w.add("Add", {scaled, w.add("Reshape", {bias, column})});
    w.add("Reshape", {shifted, shape}, node.output(0));
    return llvm::Error::success();
  }

  return keep();
}

llvm::Error Downgrader::rewriteGraph(onnx::GraphProto &graph) {
  for (const onnx::ValueInfoProto &info : graph.input())
    if (info.type().has_tensor_type() && info.type().tensor_type().has_shape())
      ranks[info.name()] = info.type().tensor_type().shape().dim_size();
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    constants[tensor.name()] = &tensor;
    ranks[tensor.name()] = tensor.dims_size();
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> rewritten;
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    for (onnx::AttributeProto &attribute : *node.mutable_attribute()) {
      if (attribute.has_g())
        if (llvm::Error failure = rewriteGraph(*attribute.mutable_g()))
          return failure;
      for (onnx::GraphProto &nested : *attribute.mutable_graphs())
        if (llvm::Error failure = rewriteGraph(nested))
          return failure;
    }
    bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";
    if (!defaultDomain) {
      *rewritten.Add() = std::move(node);
      continue;
    }
    if (node.op_type() == "Constant" && node.output_size() == 1)
      for (const onnx::AttributeProto &attribute : node.attribute())
        if (attribute.name() == "value" && attribute.has_t()) {
          constants[node.output(0)] =
              &constantValues.emplace_back(attribute.t());
          ranks[node.output(0)] = attribute.t().dims_size();
        }
    if (llvm::Error failure = rewrite(std::move(node), rewritten, graph))
      return failure;
  }
  graph.mutable_node()->Swap(&rewritten);
  return llvm::Error::success();
}

llvm::Error Downgrader::run() {
  collectNames(model.graph(), names);
  if (llvm::Error failure = rewriteGraph(*model.mutable_graph()))
    return failure;
  for (onnx::OperatorSetIdProto &opset : *model.mutable_opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      opset.set_version(kOpset);
  onnx::OperatorSetIdProto &newOps = *model.add_opset_import();
  newOps.set_domain(kNewOpsDomain.str());
  newOps.set_version(1);
  // ONNX 1.12's checker reads IR versions up to 8; 9 and 10 added element
  // types (float8, 4-bit integers) that Kiln refuses where they appear.
  if (model.ir_version() > 8)
    model.set_ir_version(8);
  return llvm::Error::success();
}

llvm::Error onnx_plugin::downgradeToOpset17(onnx::ModelProto &model,
                                            int64_t version) {
  return Downgrader(model, version).run();
}
