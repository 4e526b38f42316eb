//===- TensorProto.cpp - ONNX TensorProto files as buffers ----------------===//
//
// ONNX's test data and tools keep tensors as serialized TensorProto
// messages (`input_0.pb`). The tools read them without protobuf's library
// (kiln-run is built without the onnx plugin too): the message is a flat
// list of fields, of which a tensor needs its dims, its data type and one
// data field.
//
//===----------------------------------------------------------------------===//

#include "ValueIO.h"

#include <cstring>

using namespace kiln;
using namespace kiln::tooling;

namespace {

/// TensorProto's field numbers.
enum Field : uint32_t {
  kDims = 1,
  kDataType = 2,
  kSegment = 3,
  kFloatData = 4,
  kInt32Data = 5,
  kStringData = 6,
  kInt64Data = 7,
  kRawData = 9,
  kDoubleData = 10,
  kUint64Data = 11,
  kExternalData = 13,
  kDataLocation = 14,
};

/// Protobuf's wire types.
enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kFixed32 = 5,
};

/// Reads protobuf's wire format from a string, failing on truncation.
class WireReader {
public:
  explicit WireReader(const std::string &bytes)
      : at(bytes.data()), end(bytes.data() + bytes.size()) {}
  WireReader(const char *at, const char *end) : at(at), end(end) {}

  bool done() const { return at == end; }

  bool readVarint(uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (at == end)
        return false;
      uint8_t byte = static_cast<uint8_t>(*at++);
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }

  bool readFixed(void *value, size_t size) {
    if (static_cast<size_t>(end - at) < size)
      return false;
    std::memcpy(value, at, size); // little-endian, as x86-64
    at += size;
    return true;
  }

  /// A length-delimited field's bytes.
  bool readBytes(const char *&begin, const char *&finish) {
    uint64_t length;
    if (!readVarint(length) || length > static_cast<uint64_t>(end - at))
      return false;
    begin = at;
    at += length;
    finish = at;
    return true;
  }

  /// Skips a field of `wire` type that the reader does not need.
  bool skip(uint32_t wire) {
    uint64_t ignored;
    const char *begin, *finish;
    switch (wire) {
    case kVarint:
      return readVarint(ignored);
    case kFixed64:
      return readFixed(&ignored, 8);
    case kLengthDelimited:
      return readBytes(begin, finish);
    case kFixed32:
      return readFixed(&ignored, 4);
    default:
      return false;
    }
  }

private:
  const char *at;
  const char *end;
};

/// A repeated numeric field, packed (one length-delimited run) or not (one
/// element per occurrence): appends its elements to `values` as raw bits.
bool readRepeated(WireReader &reader, uint32_t wire, uint32_t elementWire,
                  std::vector<uint64_t> &values) {
  auto readOne = [&](WireReader &from) {
    uint64_t value = 0;
    bool ok = elementWire == kVarint    ? from.readVarint(value)
              : elementWire == kFixed32 ? from.readFixed(&value, 4)
                                        : from.readFixed(&value, 8);
    values.push_back(value);
    return ok;
  };
  if (wire == elementWire)
    return readOne(reader);
  if (wire != kLengthDelimited)
    return false;
  const char *begin, *finish;
  if (!reader.readBytes(begin, finish))
    return false;
  WireReader packed(begin, finish);
  while (!packed.done())
    if (!readOne(packed))
      return false;
  return true;
}

struct ElementInfo {
  kiln_element_type type;
  const char *name;
  /// The typed field holding the data when raw_data is absent.
  uint32_t field;
};

/// ONNX's TensorProto.DataType values Kiln has buffers for.
const ElementInfo *getElementInfo(uint64_t dataType) {
  static const std::pair<uint64_t, ElementInfo> table[] = {
      {1, {KILN_ELEMENT_F32, "FLOAT", kFloatData}},
      {2, {KILN_ELEMENT_I8, "UINT8", kInt32Data}},
      {3, {KILN_ELEMENT_I8, "INT8", kInt32Data}},
      {4, {KILN_ELEMENT_I16, "UINT16", kInt32Data}},
      {5, {KILN_ELEMENT_I16, "INT16", kInt32Data}},
      {6, {KILN_ELEMENT_I32, "INT32", kInt32Data}},
      {7, {KILN_ELEMENT_I64, "INT64", kInt64Data}},
      {9, {KILN_ELEMENT_I1, "BOOL", kInt32Data}},
      {10, {KILN_ELEMENT_F16, "FLOAT16", kInt32Data}},
      {11, {KILN_ELEMENT_F64, "DOUBLE", kDoubleData}},
      {12, {KILN_ELEMENT_I32, "UINT32", kUint64Data}},
      {13, {KILN_ELEMENT_I64, "UINT64", kUint64Data}},
      {16, {KILN_ELEMENT_BF16, "BFLOAT16", kInt32Data}},
  };
  for (const auto &[value, info] : table)
    if (value == dataType)
      return &info;
  return nullptr;
}

const char *getUnsupportedTypeName(uint64_t dataType) {
  switch (dataType) {
  case 8:
    return "STRING";
  case 14:
    return "COMPLEX64";
  case 15:
    return "COMPLEX128";
  default:
    return nullptr;
  }
}

} // namespace

Buffer kiln::tooling::parseTensorProto(const std::string &contents,
                                       const std::string &name,
                                       std::string &error) {
  auto fail = [&](const std::string &what) -> Buffer {
    error = "'" + name + "' is not a TensorProto Kiln reads: " + what;
    return nullptr;
  };
  std::vector<uint64_t> dims, floats, int32s, int64s, doubles, uint64s;
  uint64_t dataType = 0;
  const char *rawBegin = nullptr, *rawEnd = nullptr;
  WireReader reader(contents);
  while (!reader.done()) {
    uint64_t key;
    if (!reader.readVarint(key) || key >> 32)
      return fail("its protobuf does not parse (a truncated or corrupted "
                  "file?)");
    uint32_t field = static_cast<uint32_t>(key >> 3);
    uint32_t wire = static_cast<uint32_t>(key & 7);
    bool ok = true;
    switch (field) {
    case kDims:
      ok = readRepeated(reader, wire, kVarint, dims);
      break;
    case kDataType:
      ok = wire == kVarint && reader.readVarint(dataType);
      break;
    case kFloatData:
      ok = readRepeated(reader, wire, kFixed32, floats);
      break;
    case kInt32Data:
      ok = readRepeated(reader, wire, kVarint, int32s);
      break;
    case kInt64Data:
      ok = readRepeated(reader, wire, kVarint, int64s);
      break;
    case kDoubleData:
      ok = readRepeated(reader, wire, kFixed64, doubles);
      break;
    case kUint64Data:
      ok = readRepeated(reader, wire, kVarint, uint64s);
      break;
    case kRawData:
      ok = wire == kLengthDelimited && reader.readBytes(rawBegin, rawEnd);
      break;
    case kSegment:
      return fail("it is a segment of a larger tensor");
    case kStringData:
      return fail("it holds strings");
    case kExternalData:
    case kDataLocation:
      return fail("its data is stored in another file");
    default:
      ok = reader.skip(wire);
      break;
    }
    if (!ok)
      return fail("its protobuf does not parse (a truncated or corrupted "
                  "file?)");
  }

  const ElementInfo *info = getElementInfo(dataType);
  if (!info) {
    const char *typeName = getUnsupportedTypeName(dataType);
    return fail(typeName ? std::string("Kiln has no ") + typeName + " tensors"
                : dataType == 0
                    ? std::string("it has no data type")
                    : "unknown data type " + std::to_string(dataType));
  }
  if (dims.size() > KILN_MAX_RANK)
    return fail("its rank " + std::to_string(dims.size()) + " is over " +
                std::to_string(KILN_MAX_RANK));
  std::vector<int64_t> shape;
  uint64_t count = 1;
  bool overflow = false;
  for (uint64_t dim : dims) {
    if (static_cast<int64_t>(dim) < 0)
      return fail("it has a negative dimension");
    shape.push_back(static_cast<int64_t>(dim));
    overflow |= __builtin_mul_overflow(count, dim, &count);
  }
  size_t size = kiln_element_type_size(info->type);
  uint64_t bytes = 0;
  overflow |= __builtin_mul_overflow(count, size, &bytes);
  if (overflow)
    return fail("its shape has more than 2^64 bytes");

  // The data first, so a shape that promises more than the file holds is
  // an error, not an allocation.
  const std::vector<uint64_t> *typed = info->field == kFloatData    ? &floats
                                       : info->field == kInt32Data  ? &int32s
                                       : info->field == kInt64Data  ? &int64s
                                       : info->field == kDoubleData ? &doubles
                                                                    : &uint64s;
  if (rawBegin) {
    if (static_cast<uint64_t>(rawEnd - rawBegin) != bytes)
      return fail("its raw_data has " + std::to_string(rawEnd - rawBegin) +
                  " bytes, but " + std::to_string(count) + " " + info->name +
                  " elements take " + std::to_string(bytes));
  } else if (typed->size() != count) {
    return fail("it has " + std::to_string(typed->size()) +
                " data elements, but its shape holds " + std::to_string(count));
  }

  kiln_buffer *raw = nullptr;
  if (kiln_error *err = kiln_buffer_create(
          info->type, static_cast<int32_t>(shape.size()), shape.data(), &raw)) {
    error = "'" + name + "': " + kiln_error_message(err);
    kiln_error_free(err);
    return nullptr;
  }
  Buffer buffer(raw);
  char *data = static_cast<char *>(kiln_buffer_data(raw));
  if (rawBegin) {
    if (bytes)
      std::memcpy(data, rawBegin, bytes);
    return buffer;
  }
  // Typed fields: each element's low `size` bytes (int32_data holds 8- and
  // 16-bit integers, bools and the bits of 16-bit floats; float_data the
  // bits of floats; double_data the bits of doubles).
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t value = (*typed)[i];
    if (info->type == KILN_ELEMENT_I1)
      value = value != 0;
    std::memcpy(data + i * size, &value, size);
  }
  return buffer;
}
