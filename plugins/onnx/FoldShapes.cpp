//===- FoldShapes.cpp - Shape arithmetic computed at import ---------------===//
//
// Exporters (torch.onnx above all) compute shapes inside the graph:
// Shape, Gather, arithmetic and Concat feed Reshape, Slice and Expand.
// ONNX 1.12's shape inference follows only part of that, so a Slice whose
// bounds are computed gets no shape, and everything after it dynamic
// shapes. foldShapeComputations evaluates those small integer
// computations where their inputs are known (initializers, Constant
// nodes, Shape of a tensor whose shape inference made static) and turns
// each into a Constant node; shape inference then runs again on a graph
// whose shapes are constants.
//
//===----------------------------------------------------------------------===//

#include "FoldShapes.h"
#include "TensorProto.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <optional>

using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// A known integer tensor: its dims and elements (row-major).
struct Known {
  std::vector<int64_t> dims;
  std::vector<int64_t> values;
  int dataType = onnx::TensorProto::INT64;
};
} // namespace

/// Tensors larger than this are not shape computations.
static constexpr size_t kMaxElements = 64;

static bool isFoldableType(int dataType) {
  return dataType == onnx::TensorProto::INT64 ||
         dataType == onnx::TensorProto::INT32;
}

/// `tensor`'s elements if it is a small INT64 or INT32 tensor.
static std::optional<Known> readKnown(const onnx::TensorProto &tensor) {
  if (!isFoldableType(tensor.data_type()))
    return std::nullopt;
  Known known;
  known.dataType = tensor.data_type();
  size_t count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0)
      return std::nullopt;
    known.dims.push_back(dim);
    count *= static_cast<size_t>(dim);
  }
  if (count > kMaxElements)
    return std::nullopt;
  std::string bytes, error;
  if (!decodeTensorBytes(tensor, bytes, error))
    return std::nullopt;
  size_t width = known.dataType == onnx::TensorProto::INT64 ? 8 : 4;
  if (bytes.size() != count * width)
    return std::nullopt;
  for (size_t i = 0; i < count; ++i) {
    if (width == 8) {
      int64_t value;
      memcpy(&value, bytes.data() + i * 8, 8);
      known.values.push_back(value);
    } else {
      int32_t value;
      memcpy(&value, bytes.data() + i * 4, 4);
      known.values.push_back(value);
    }
  }
  return known;
}

/// A Constant node named like `node`, producing `known` as its output.
static void makeConstant(onnx::NodeProto &node, const Known &known) {
  std::string output = node.output(0);
  std::string name = node.name();
  node.Clear();
  node.set_op_type("Constant");
  node.set_name(name);
  node.add_output(output);
  onnx::AttributeProto *attribute = node.add_attribute();
  attribute->set_name("value");
  attribute->set_type(onnx::AttributeProto::TENSOR);
  onnx::TensorProto *tensor = attribute->mutable_t();
  tensor->set_data_type(known.dataType);
  for (int64_t dim : known.dims)
    tensor->add_dims(dim);
  for (int64_t value : known.values) {
    if (known.dataType == onnx::TensorProto::INT64)
      tensor->add_int64_data(value);
    else
      tensor->add_int32_data(static_cast<int32_t>(value));
  }
}

static int64_t getInt(const onnx::NodeProto &node, const std::string &name,
                      int64_t fallback) {
  for (const onnx::AttributeProto &attribute : node.attribute())
    if (attribute.name() == name &&
        attribute.type() == onnx::AttributeProto::INT)
      return attribute.i();
  return fallback;
}

/// The static shape of `value` from shape inference, if it has one.
static std::optional<std::vector<int64_t>>
getStaticShape(const onnx::TypeProto *type) {
  if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
    return std::nullopt;
  std::vector<int64_t> shape;
  for (const onnx::TensorShapeProto::Dimension &dim :
       type->tensor_type().shape().dim()) {
    if (!dim.has_dim_value() || dim.dim_value() < 0)
      return std::nullopt;
    shape.push_back(dim.dim_value());
  }
  return shape;
}

/// numpy broadcasting of two known tensors by `op`.
static std::optional<Known> broadcast(const Known &a, const Known &b,
                                      int64_t (*op)(int64_t, int64_t)) {
  size_t rank = std::max(a.dims.size(), b.dims.size());
  std::vector<int64_t> dims(rank);
  for (size_t d = 0; d < rank; ++d) {
    auto dimOf = [&](const Known &k) -> int64_t {
      size_t offset = rank - k.dims.size();
      return d < offset ? 1 : k.dims[d - offset];
    };
    int64_t x = dimOf(a), y = dimOf(b);
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    dims[d] = std::max(x, y);
  }
  Known result;
  result.dims = dims;
  result.dataType = a.dataType;
  size_t count = 1;
  for (int64_t dim : dims)
    count *= dim;
  for (size_t i = 0; i < count; ++i) {
    // The element of each operand at the broadcast position of i.
    auto element = [&](const Known &k) {
      size_t offset = rank - k.dims.size(), index = 0, rest = i;
      std::vector<size_t> position(rank);
      for (size_t d = rank; d-- > 0;) {
        position[d] = rest % dims[d];
        rest /= dims[d];
      }
      for (size_t d = offset; d < rank; ++d)
        index = index * k.dims[d - offset] +
                (k.dims[d - offset] == 1 ? 0 : position[d]);
      return k.values[index];
    };
    result.values.push_back(op(element(a), element(b)));
  }
  return result;
}

/// The value of `node` from its known inputs, if it is a shape
/// computation Kiln folds.
static std::optional<Known>
evaluate(const onnx::NodeProto &node, llvm::ArrayRef<const Known *> inputs,
         const llvm::StringMap<const onnx::TypeProto *> &types) {
  const std::string &op = node.op_type();
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return std::nullopt;
  if (node.output_size() != 1)
    return std::nullopt;
  if (op == "Shape") {
    std::optional<std::vector<int64_t>> shape =
        getStaticShape(types.lookup(node.input(0)));
    if (!shape)
      return std::nullopt;
    int64_t rank = shape->size();
    int64_t start = getInt(node, "start", 0), end = getInt(node, "end", rank);
    auto clamp = [&](int64_t v) {
      v = v < 0 ? v + rank : v;
      return std::clamp<int64_t>(v, 0, rank);
    };
    start = clamp(start);
    end = clamp(end);
    Known known;
    for (int64_t d = start; d < end; ++d)
      known.values.push_back((*shape)[d]);
    known.dims = {static_cast<int64_t>(known.values.size())};
    return known;
  }
  if (op == "Size") {
    std::optional<std::vector<int64_t>> shape =
        getStaticShape(types.lookup(node.input(0)));
    if (!shape)
      return std::nullopt;
    Known known;
    int64_t count = 1;
    for (int64_t dim : *shape)
      count *= dim;
    known.values = {count};
    return known;
  }
  // The rest need every input known.
  if (llvm::any_of(inputs, [](const Known *k) { return !k; }) || inputs.empty())
    return std::nullopt;
  const Known &x = *inputs[0];
  if (op == "Identity")
    return x;
  if (op == "Cast") {
    int64_t to = getInt(node, "to", 0);
    if (!isFoldableType(static_cast<int>(to)))
      return std::nullopt;
    Known known = x;
    known.dataType = static_cast<int>(to);
    if (to == onnx::TensorProto::INT32)
      for (int64_t &value : known.values)
        value = static_cast<int32_t>(value);
    return known;
  }
  if (op == "Neg") {
    Known known = x;
    for (int64_t &value : known.values)
      value = -value;
    return known;
  }
  if (inputs.size() == 2 && (op == "Add" || op == "Sub" || op == "Mul" ||
                             op == "Div" || op == "Max" || op == "Min")) {
    int64_t (*fn)(int64_t, int64_t) = nullptr;
    if (op == "Max")
      fn = [](int64_t a, int64_t b) { return std::max(a, b); };
    else if (op == "Min")
      fn = [](int64_t a, int64_t b) { return std::min(a, b); };
    else if (op == "Add")
      fn = [](int64_t a, int64_t b) { return a + b; };
    else if (op == "Sub")
      fn = [](int64_t a, int64_t b) { return a - b; };
    else if (op == "Mul")
      fn = [](int64_t a, int64_t b) { return a * b; };
    else if (llvm::is_contained(inputs[1]->values, 0))
      return std::nullopt;
    else
      fn = [](int64_t a, int64_t b) { return a / b; };
    return broadcast(x, *inputs[1], fn);
  }
  if (op == "Gather" && inputs.size() == 2 && x.dims.size() == 1) {
    int64_t size = x.values.size();
    if (getInt(node, "axis", 0) != 0)
      return std::nullopt;
    Known known;
    known.dims = inputs[1]->dims;
    known.dataType = x.dataType;
    for (int64_t index : inputs[1]->values) {
      index = index < 0 ? index + size : index;
      if (index < 0 || index >= size)
        return std::nullopt;
      known.values.push_back(x.values[index]);
    }
    return known;
  }
  if (op == "Unsqueeze" || op == "Squeeze") {
    // 0-D to 1-D and back: the shape computations' only use, with axes
    // that say so (others are left to the converter's errors).
    Known known = x;
    bool axisZero = inputs.size() < 2 || inputs[1]->values.empty() ||
                    (inputs[1]->values.size() == 1 &&
                     (inputs[1]->values[0] == 0 || inputs[1]->values[0] == -1));
    if (!axisZero)
      return std::nullopt;
    if (op == "Unsqueeze" && x.dims.empty())
      known.dims = {1};
    else if (op == "Squeeze" && x.dims == std::vector<int64_t>{1})
      known.dims = {};
    else
      return std::nullopt;
    return known;
  }
  if (op == "Concat") {
    Known known;
    known.dataType = x.dataType;
    for (const Known *input : inputs) {
      if (input->dims.size() != 1 || input->dataType != x.dataType)
        return std::nullopt;
      llvm::append_range(known.values, input->values);
    }
    known.dims = {static_cast<int64_t>(known.values.size())};
    return known;
  }
  if (op == "Slice" && x.dims.size() == 1 && inputs.size() >= 3 &&
      inputs[1]->values.size() == 1 && inputs[2]->values.size() == 1 &&
      (inputs.size() < 4 || inputs[3]->values == std::vector<int64_t>{0}) &&
      (inputs.size() < 5 || inputs[4]->values == std::vector<int64_t>{1})) {
    int64_t size = x.values.size();
    auto clamp = [&](int64_t v) {
      v = v < 0 ? v + size : v;
      return std::clamp<int64_t>(v, 0, size);
    };
    int64_t start = clamp(inputs[1]->values[0]);
    int64_t end = clamp(inputs[2]->values[0]);
    Known known;
    known.dataType = x.dataType;
    for (int64_t i = start; i < end; ++i)
      known.values.push_back(x.values[i]);
    known.dims = {static_cast<int64_t>(known.values.size())};
    return known;
  }
  return std::nullopt;
}

bool onnx_plugin::foldShapeComputations(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringMap<const onnx::TypeProto *> types;
  for (const onnx::ValueInfoProto &info : graph.input())
    types[info.name()] = &info.type();
  for (const onnx::ValueInfoProto &info : graph.value_info())
    types[info.name()] = &info.type();
  llvm::StringMap<Known> known;
  for (const onnx::TensorProto &tensor : graph.initializer())
    if (std::optional<Known> value = readKnown(tensor))
      known[tensor.name()] = *value;
  bool changed = false;
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    if (node.op_type() == "Constant" && node.domain().empty()) {
      for (const onnx::AttributeProto &attribute : node.attribute())
        if (attribute.name() == "value" && attribute.has_t())
          if (std::optional<Known> value = readKnown(attribute.t()))
            known[node.output(0)] = *value;
      continue;
    }
    std::vector<const Known *> inputs;
    for (const std::string &input : node.input()) {
      auto it = known.find(input);
      inputs.push_back(it == known.end() ? nullptr : &it->second);
    }
    std::optional<Known> value = evaluate(node, inputs, types);
    // Empty results stay: ONNX 1.12's inference loses the rank of an
    // empty Constant.
    if (!value || value->values.empty() || value->values.size() > kMaxElements)
      continue;
    known[node.output(0)] = *value;
    makeConstant(node, *value);
    changed = true;
  }
  return changed;
}
