//===- NodeWriter.cpp - ONNX nodes written in place of one ----------------===//
//
// What the rewrites of an ONNX graph before ONNX's library reads it
// (PrepareDowngrade.cpp, WriteNewOps.cpp) share: nodes and constants
// added under fresh names, and attributes read and set.
//
//===----------------------------------------------------------------------===//

#include "NodeWriter.h"

using namespace kiln;
using namespace kiln::onnx_plugin;

std::string NodeWriter::freshName(const std::string &base) {
  std::string name = base;
  for (int i = 1; names.contains(name); ++i)
    name = base + "." + std::to_string(i);
  names.insert(name);
  return name;
}

std::string NodeWriter::add(llvm::StringRef type,
                            std::vector<std::string> inputs,
                            std::string output) {
  onnx::NodeProto &node = *out.Add();
  node.set_op_type(type.str());
  node.set_name(freshName(from.name() + "." + type.str()));
  for (std::string &input : inputs)
    node.add_input(input);
  if (output.empty())
    output = freshName((from.output_size() ? from.output(0) : from.name()) +
                       "." + type.str());
  node.add_output(output);
  return output;
}

std::string NodeWriter::constant(onnx::TensorProto tensor) {
  std::string output = add("Constant", {});
  setTensor(last(), "value", std::move(tensor));
  return output;
}

std::string NodeWriter::ints(llvm::ArrayRef<int64_t> values, bool scalar) {
  onnx::TensorProto tensor;
  tensor.set_data_type(onnx::TensorProto::INT64);
  if (!scalar)
    tensor.add_dims(static_cast<int64_t>(values.size()));
  for (int64_t value : values)
    tensor.add_int64_data(value);
  return constant(std::move(tensor));
}

std::string NodeWriter::floats(const std::string &like,
                               llvm::ArrayRef<float> values,
                               llvm::ArrayRef<int64_t> dims) {
  onnx::TensorProto tensor;
  tensor.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t dim : dims)
    tensor.add_dims(dim);
  for (float value : values)
    tensor.add_float_data(value);
  return add("CastLike", {constant(std::move(tensor)), like});
}

std::string NodeWriter::dim(const std::string &shape, int64_t index) {
  return add("Slice", {shape, ints({index}), ints({index + 1})});
}

std::string NodeWriter::element(const std::string &values, int64_t index) {
  return add("Squeeze", {dim(values, index), ints({0})});
}

std::string NodeWriter::concat(std::vector<std::string> values) {
  std::string output = add("Concat", std::move(values));
  setInt(last(), "axis", 0);
  return output;
}

llvm::Error NodeWriter::fail(int64_t version, const llvm::Twine &why) const {
  bool vowel = !from.op_type().empty() &&
               llvm::StringRef("AEIOU").contains(from.op_type()[0]);
  std::string name =
      from.name().empty()
          ? (vowel ? "an " : "a ") + from.op_type() + " node ("
          : "node '" + from.name() + "' (" + from.op_type() + ", ";
  return llvm::createStringError(name + "opset " + llvm::Twine(version) +
                                 "): " + why);
}

bool onnx_plugin::hasInput(const onnx::NodeProto &node, int index) {
  return index < node.input_size() && !node.input(index).empty();
}

onnx::AttributeProto *onnx_plugin::findAttribute(onnx::NodeProto &node,
                                                 llvm::StringRef name) {
  for (onnx::AttributeProto &attribute : *node.mutable_attribute())
    if (attribute.name() == name)
      return &attribute;
  return nullptr;
}

void onnx_plugin::removeAttribute(onnx::NodeProto &node, llvm::StringRef name) {
  auto *attributes = node.mutable_attribute();
  for (int i = 0; i < attributes->size(); ++i)
    if (attributes->Get(i).name() == name) {
      attributes->DeleteSubrange(i, 1);
      return;
    }
}

int64_t onnx_plugin::getIntAttribute(onnx::NodeProto &node,
                                     llvm::StringRef name, int64_t fallback) {
  onnx::AttributeProto *attribute = findAttribute(node, name);
  return attribute ? attribute->i() : fallback;
}

std::vector<int64_t>
onnx_plugin::getIntsAttribute(onnx::NodeProto &node, llvm::StringRef name,
                              std::vector<int64_t> fallback) {
  onnx::AttributeProto *attribute = findAttribute(node, name);
  if (!attribute)
    return fallback;
  return {attribute->ints().begin(), attribute->ints().end()};
}

std::string onnx_plugin::getStringAttribute(onnx::NodeProto &node,
                                            llvm::StringRef name,
                                            llvm::StringRef fallback) {
  onnx::AttributeProto *attribute = findAttribute(node, name);
  return attribute ? attribute->s() : fallback.str();
}

void onnx_plugin::setInt(onnx::NodeProto &node, llvm::StringRef name,
                         int64_t value) {
  removeAttribute(node, name);
  onnx::AttributeProto &attribute = *node.add_attribute();
  attribute.set_name(name.str());
  attribute.set_type(onnx::AttributeProto::INT);
  attribute.set_i(value);
}

void onnx_plugin::setInts(onnx::NodeProto &node, llvm::StringRef name,
                          llvm::ArrayRef<int64_t> values) {
  removeAttribute(node, name);
  onnx::AttributeProto &attribute = *node.add_attribute();
  attribute.set_name(name.str());
  attribute.set_type(onnx::AttributeProto::INTS);
  for (int64_t value : values)
    attribute.add_ints(value);
}

void onnx_plugin::setString(onnx::NodeProto &node, llvm::StringRef name,
                            llvm::StringRef value) {
  removeAttribute(node, name);
  onnx::AttributeProto &attribute = *node.add_attribute();
  attribute.set_name(name.str());
  attribute.set_type(onnx::AttributeProto::STRING);
  attribute.set_s(value.str());
}

void onnx_plugin::setTensor(onnx::NodeProto &node, llvm::StringRef name,
                            onnx::TensorProto tensor) {
  removeAttribute(node, name);
  onnx::AttributeProto &attribute = *node.add_attribute();
  attribute.set_name(name.str());
  attribute.set_type(onnx::AttributeProto::TENSOR);
  *attribute.mutable_t() = std::move(tensor);
}
