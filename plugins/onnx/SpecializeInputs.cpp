//===- SpecializeInputs.cpp - Sizes the user gives a model's inputs ------===//
//
// --kiln-input-shape and --kiln-dim, applied to the ModelProto before the
// checker and shape inference run, so that everything after sees the
// sizes as if the model had declared them.
//
//===----------------------------------------------------------------------===//

#include "SpecializeInputs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <onnx/onnx_pb.h>

using namespace llvm;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// An error message built with <<, which becomes an llvm::Error.
class Message {
public:
  template <typename T> Message &operator<<(const T &value) {
    os << value;
    return *this;
  }
  operator llvm::Error() { return createStringError(text); }

private:
  std::string text;
  raw_string_ostream os{text};
};
} // namespace

/// The dims of `info`'s tensor type, or null when it has none.
static onnx::TensorShapeProto *getShape(onnx::ValueInfoProto &info) {
  if (!info.has_type() || !info.type().has_tensor_type())
    return nullptr;
  return info.mutable_type()->mutable_tensor_type()->mutable_shape();
}

llvm::Error
onnx_plugin::specializeInputs(onnx::ModelProto &model,
                              const InputSpecialization &specialization) {
  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  // The inputs a caller gives (not those an initializer fills).
  SmallVector<onnx::ValueInfoProto *> inputs;
  for (onnx::ValueInfoProto &input : *graph.mutable_input())
    if (!initializers.contains(input.name()))
      inputs.push_back(&input);
  auto listInputs = [&] {
    std::string names;
    for (onnx::ValueInfoProto *input : inputs)
      names += (names.empty() ? "'" : ", '") + input->name() + "'";
    return names.empty() ? std::string("none") : names;
  };
  for (const InputSpecialization::Shape &shape : specialization.shapes) {
    onnx::ValueInfoProto *input = nullptr;
    for (onnx::ValueInfoProto *candidate : inputs)
      if (candidate->name() == shape.input)
        input = candidate;
    unsigned position;
    if (!input && !StringRef(shape.input).getAsInteger(10, position) &&
        position < inputs.size())
      input = inputs[position];
    if (!input)
      return Message() << "--kiln-input-shape names input '" << shape.input
                       << "', which the model does not have (its inputs: "
                       << listInputs() << ")";
    onnx::TensorShapeProto *dims = getShape(*input);
    if (!dims)
      return Message() << "--kiln-input-shape: input '" << input->name()
                       << "' is not a tensor";
    if (input->type().tensor_type().has_shape() &&
        dims->dim_size() != static_cast<int>(shape.dims.size()))
      return Message() << "--kiln-input-shape gives input '" << input->name()
                       << "' " << shape.dims.size() << " dimensions; it has "
                       << dims->dim_size();
    for (auto [index, size] : llvm::enumerate(shape.dims))
      if (static_cast<int>(index) < dims->dim_size() &&
          dims->dim(index).has_dim_value() &&
          dims->dim(index).dim_value() != size)
        return Message() << "--kiln-input-shape gives dimension " << index
                         << " of input '" << input->name() << "' size " << size
                         << ", but the model fixes it at "
                         << dims->dim(index).dim_value();
    dims->clear_dim();
    for (int64_t size : shape.dims)
      dims->add_dim()->set_dim_value(size);
  }
  for (const auto &[symbol, size] : specialization.dims) {
    int64_t found = 0;
    llvm::StringSet<> symbols;
    auto replace = [&](onnx::ValueInfoProto &info) {
      if (onnx::TensorShapeProto *dims = getShape(info))
        for (onnx::TensorShapeProto::Dimension &dim : *dims->mutable_dim()) {
          if (!dim.has_dim_param())
            continue;
          symbols.insert(dim.dim_param());
          if (dim.dim_param() == symbol) {
            dim.set_dim_value(size);
            ++found;
          }
        }
    };
    for (onnx::ValueInfoProto &info : *graph.mutable_input())
      replace(info);
    for (onnx::ValueInfoProto &info : *graph.mutable_output())
      replace(info);
    for (onnx::ValueInfoProto &info : *graph.mutable_value_info())
      replace(info);
    if (!found) {
      std::string names;
      for (const auto &entry : symbols)
        names += (names.empty() ? "'" : ", '") + entry.getKey().str() + "'";
      return Message() << "--kiln-dim names '" << symbol
                       << "', which no input or output of the model has (its "
                          "symbolic dimensions: "
                       << (names.empty() ? std::string("none") : names) << ")";
    }
  }
  return llvm::Error::success();
}
