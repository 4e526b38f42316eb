//===- TensorProto.cpp - ONNX tensors as bytes and attributes -------------===//

#include "TensorProto.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

#include "onnx/onnx_pb.h"

#include <cstring>
#include <optional>

using namespace mlir;
using namespace kiln;

FailureOr<Type> onnx_plugin::getElementType(MLIRContext *context,
                                            int dataType) {
  Builder b(context);
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    return Type(b.getF32Type());
  case onnx::TensorProto::DOUBLE:
    return Type(b.getF64Type());
  case onnx::TensorProto::FLOAT16:
    return Type(b.getF16Type());
  case onnx::TensorProto::BFLOAT16:
    return Type(b.getBF16Type());
  case onnx::TensorProto::BOOL:
    return Type(b.getI1Type());
  case onnx::TensorProto::INT8:
    return Type(b.getI8Type());
  case onnx::TensorProto::INT16:
    return Type(b.getI16Type());
  case onnx::TensorProto::INT32:
    return Type(b.getI32Type());
  case onnx::TensorProto::INT64:
    return Type(b.getI64Type());
  case onnx::TensorProto::UINT8:
    return Type(IntegerType::get(context, 8, IntegerType::Unsigned));
  case onnx::TensorProto::UINT16:
    return Type(IntegerType::get(context, 16, IntegerType::Unsigned));
  case onnx::TensorProto::UINT32:
    return Type(IntegerType::get(context, 32, IntegerType::Unsigned));
  case onnx::TensorProto::UINT64:
    return Type(IntegerType::get(context, 64, IntegerType::Unsigned));
  default:
    return failure();
  }
}

std::string onnx_plugin::getDataTypeName(int dataType) {
  if (onnx::TensorProto::DataType_IsValid(dataType))
    return onnx::TensorProto::DataType_Name(
        static_cast<onnx::TensorProto::DataType>(dataType));
  return "unknown (" + std::to_string(dataType) + ")";
}

/// Bytes per element as Kiln stores it; 0 for unsupported types.
static size_t getElementBytes(int dataType) {
  switch (dataType) {
  case onnx::TensorProto::BOOL:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return 1;
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
    return 2;
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::FLOAT:
    return 4;
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::DOUBLE:
    return 8;
  default:
    return 0;
  }
}

/// Appends the low `size` bytes of `value` (little-endian, as x86-64
/// stores it).
template <typename T>
static void appendBytes(std::string &bytes, T value, size_t size) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.append(raw, size);
}

/// The number of elements of `tensor`'s shape; none, with the dim in
/// `badDim`, for a negative dim or a count over 2^40.
static std::optional<uint64_t> getElementCount(const onnx::TensorProto &tensor,
                                               int64_t &badDim) {
  uint64_t count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0 || (dim && count > (uint64_t(1) << 40) / uint64_t(dim))) {
      badDim = dim;
      return std::nullopt;
    }
    count *= dim;
  }
  return count;
}

bool onnx_plugin::decodeTensorBytes(const onnx::TensorProto &tensor,
                                    std::string &bytes, std::string &error) {
  std::string what = tensor.name().empty() ? std::string("a tensor")
                                           : "tensor '" + tensor.name() + "'";
  int dataType = tensor.data_type();
  size_t elementBytes = getElementBytes(dataType);
  if (!elementBytes) {
    error = what + " has element type " + getDataTypeName(dataType) +
            ", which Kiln does not support";
    return false;
  }
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    error = what + " keeps its data in an external file";
    return false;
  }
  int64_t badDim = 0;
  std::optional<uint64_t> elements = getElementCount(tensor, badDim);
  if (!elements) {
    error = what + " has a negative or too large dimension (" +
            std::to_string(badDim) + ")";
    return false;
  }
  uint64_t count = *elements;
  bytes.clear();
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != count * elementBytes) {
      error = what + " has " + std::to_string(tensor.raw_data().size()) +
              " bytes of data for " + std::to_string(count) + " elements of " +
              getDataTypeName(dataType);
      return false;
    }
    bytes = tensor.raw_data();
    if (dataType == onnx::TensorProto::BOOL)
      for (char &byte : bytes)
        byte = byte != 0;
    return true;
  }
  uint64_t stored = 0;
  switch (dataType) {
  case onnx::TensorProto::FLOAT:
    stored = tensor.float_data_size();
    for (float value : tensor.float_data())
      appendBytes(bytes, value, 4);
    break;
  case onnx::TensorProto::DOUBLE:
    stored = tensor.double_data_size();
    for (double value : tensor.double_data())
      appendBytes(bytes, value, 8);
    break;
  case onnx::TensorProto::INT64:
    stored = tensor.int64_data_size();
    for (int64_t value : tensor.int64_data())
      appendBytes(bytes, value, 8);
    break;
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    stored = tensor.uint64_data_size();
    for (uint64_t value : tensor.uint64_data())
      appendBytes(bytes, value, elementBytes);
    break;
  default:
    // Everything of 32 bits or fewer that is not a float: int32_data, one
    // element each (float16 and bfloat16 as their bits).
    stored = tensor.int32_data_size();
    for (int32_t value : tensor.int32_data())
      appendBytes(bytes,
                  dataType == onnx::TensorProto::BOOL ? int32_t(value != 0)
                                                      : value,
                  elementBytes);
    break;
  }
  if (stored != count) {
    error = what + " holds " + std::to_string(stored) + " elements, but its " +
            "shape has " + std::to_string(count);
    return false;
  }
  return true;
}

/// A resource key from a tensor's name: letters, digits and underscores.
static std::string getResourceKey(StringRef name) {
  std::string key = name.empty() ? "onnx_tensor" : "onnx_" + name.str();
  for (char &c : key)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return key;
}

FailureOr<ElementsAttr>
onnx_plugin::importTensor(MLIRContext *context, const onnx::TensorProto &tensor,
                          size_t resourceBytes,
                          llvm::function_ref<InFlightDiagnostic()> error) {
  FailureOr<Type> element = getElementType(context, tensor.data_type());
  auto type = [&] {
    return RankedTensorType::get(
        SmallVector<int64_t>(tensor.dims().begin(), tensor.dims().end()),
        *element);
  };
  // Large raw data goes into its blob straight from the model: one copy of
  // the weights fewer at the peak of an import.
  if (succeeded(element) && !element->isInteger(1) && tensor.has_raw_data() &&
      tensor.raw_data().size() > resourceBytes &&
      tensor.data_location() != onnx::TensorProto::EXTERNAL) {
    int64_t badDim; // decodeTensorBytes says why below
    std::optional<uint64_t> count = getElementCount(tensor, badDim);
    const std::string &raw = tensor.raw_data();
    if (count && *count * getElementBytes(tensor.data_type()) == raw.size()) {
      AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
          ArrayRef<char>(raw.data(), raw.size()), alignof(uint64_t));
      return ElementsAttr(DenseResourceElementsAttr::get(
          type(), getResourceKey(tensor.name()), std::move(blob)));
    }
  }
  std::string bytes, message;
  if (failed(element) || !decodeTensorBytes(tensor, bytes, message)) {
    if (message.empty())
      message = "tensor '" + tensor.name() + "' has element type " +
                getDataTypeName(tensor.data_type()) +
                ", which Kiln does not support";
    return error() << message, failure();
  }
  if (element->isInteger(1)) {
    SmallVector<bool> values(bytes.begin(), bytes.end());
    return ElementsAttr(DenseElementsAttr::get(type(), ArrayRef<bool>(values)));
  }
  if (bytes.size() > resourceBytes) {
    AsmResourceBlob blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
        ArrayRef<char>(bytes.data(), bytes.size()), alignof(uint64_t));
    return ElementsAttr(DenseResourceElementsAttr::get(
        type(), getResourceKey(tensor.name()), std::move(blob)));
  }
  return ElementsAttr(DenseElementsAttr::getFromRawBuffer(
      type(), ArrayRef<char>(bytes.data(), bytes.size())));
}
