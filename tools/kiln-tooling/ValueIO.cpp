//===- ValueIO.cpp - Tensors in and out of Kiln's tools -------------------===//
//
// Inline values, printing and random inputs (.npy files: Npy.cpp).
//
//===----------------------------------------------------------------------===//

#include "ValueIO.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace kiln;
using namespace kiln::tooling;

//===----------------------------------------------------------------------===//
// Element conversions
//===----------------------------------------------------------------------===//

static uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

static float bitsFloat(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

/// IEEE half from float, rounding to nearest even.
static uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff) // inf or nan
    return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  if (exponent >= 31)
    return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10)
      return sign;
    mantissa |= 0x800000;
    uint32_t shift = 14 - exponent;
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t half = sign | (exponent << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return half;
}

static float halfToFloat(uint16_t half) {
  uint32_t sign = (half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  if (exponent == 0) {
    if (mantissa == 0)
      return bitsFloat(sign);
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31)
    return bitsFloat(sign | 0x7f800000 | (mantissa << 13));
  return bitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

static uint16_t floatToBF16(float value) {
  uint32_t bits = floatBits(value);
  if (std::isnan(value))
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

static float bf16ToFloat(uint16_t value) {
  return bitsFloat(static_cast<uint32_t>(value) << 16);
}

bool kiln::tooling::isFloat(kiln_element_type type) {
  return type == KILN_ELEMENT_F16 || type == KILN_ELEMENT_BF16 ||
         type == KILN_ELEMENT_F32 || type == KILN_ELEMENT_F64;
}

/// Stores `value` as an element of `type` at `target`.
static void storeFloat(kiln_element_type type, double value, char *target) {
  switch (type) {
  case KILN_ELEMENT_F16: {
    uint16_t half = floatToHalf(static_cast<float>(value));
    std::memcpy(target, &half, 2);
    return;
  }
  case KILN_ELEMENT_BF16: {
    uint16_t bf16 = floatToBF16(static_cast<float>(value));
    std::memcpy(target, &bf16, 2);
    return;
  }
  case KILN_ELEMENT_F32: {
    float f = static_cast<float>(value);
    std::memcpy(target, &f, 4);
    return;
  }
  default: {
    std::memcpy(target, &value, 8);
    return;
  }
  }
}

static void storeInt(kiln_element_type type, int64_t value, char *target) {
  size_t size = kiln_element_type_size(type);
  std::memcpy(target, &value, size); // little-endian: the low bytes
}

double kiln::tooling::loadFloat(kiln_element_type type, const char *source) {
  switch (type) {
  case KILN_ELEMENT_F16: {
    uint16_t half;
    std::memcpy(&half, source, 2);
    return halfToFloat(half);
  }
  case KILN_ELEMENT_BF16: {
    uint16_t bf16;
    std::memcpy(&bf16, source, 2);
    return bf16ToFloat(bf16);
  }
  case KILN_ELEMENT_F32: {
    float f;
    std::memcpy(&f, source, 4);
    return f;
  }
  default: {
    double d;
    std::memcpy(&d, source, 8);
    return d;
  }
  }
}

int64_t kiln::tooling::loadInt(kiln_element_type type, const char *source) {
  switch (type) {
  case KILN_ELEMENT_I1:
    return *source != 0;
  case KILN_ELEMENT_I8:
    return static_cast<int8_t>(*source);
  case KILN_ELEMENT_I16: {
    int16_t v;
    std::memcpy(&v, source, 2);
    return v;
  }
  case KILN_ELEMENT_I32: {
    int32_t v;
    std::memcpy(&v, source, 4);
    return v;
  }
  default: {
    int64_t v;
    std::memcpy(&v, source, 8);
    return v;
  }
  }
}

//===----------------------------------------------------------------------===//
// Inline values
//===----------------------------------------------------------------------===//

static bool parseInteger(const std::string &text, int64_t &value) {
  if (text.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  long long parsed = std::strtoll(text.c_str(), &end, 10);
  if (*end || errno == ERANGE)
    return false;
  value = parsed;
  return true;
}

/// One value of `type` from `token` into `target`.
static bool parseElement(kiln_element_type type, const std::string &token,
                         char *target, std::string &error) {
  if (isFloat(type)) {
    errno = 0;
    char *end = nullptr;
    double value = std::strtod(token.c_str(), &end);
    if (token.empty() || *end) {
      error = "'" + token + "' is not a number";
      return false;
    }
    storeFloat(type, value, target);
    return true;
  }
  if (type == KILN_ELEMENT_I1) {
    if (token == "true" || token == "1") {
      *target = 1;
    } else if (token == "false" || token == "0") {
      *target = 0;
    } else {
      error = "'" + token + "' is not a boolean (true, false, 1 or 0)";
      return false;
    }
    return true;
  }
  int64_t value;
  if (!parseInteger(token, value)) {
    error = "'" + token + "' is not an integer";
    return false;
  }
  int bits = static_cast<int>(kiln_element_type_size(type) * 8);
  if (bits < 64) {
    int64_t min = -(int64_t(1) << (bits - 1));
    int64_t max = (int64_t(1) << bits) - 1; // signed or unsigned spelling
    if (value < min || value > max) {
      error = "'" + token + "' does not fit in " + kiln_element_type_name(type);
      return false;
    }
  }
  storeInt(type, value, target);
  return true;
}

static Buffer parseInline(const std::string &spec, std::string &error) {
  size_t equals = spec.find('=');
  if (equals == std::string::npos) {
    error = "expected TYPE=VALUES such as 2x3xf32=1,2,3,4,5,6, or @file.npy";
    return nullptr;
  }
  std::string typeText = spec.substr(0, equals);
  std::vector<std::string> parts;
  std::stringstream typeStream(typeText);
  for (std::string part; std::getline(typeStream, part, 'x');)
    parts.push_back(part);
  if (parts.empty()) {
    error = "missing element type before '='";
    return nullptr;
  }
  kiln_element_type type = kiln_element_type_from_name(parts.back().c_str());
  if (type == KILN_ELEMENT_INVALID) {
    error = "unknown element type '" + parts.back() +
            "' (expected i1, i8, i16, i32, i64, f16, bf16, f32 or f64)";
    return nullptr;
  }
  std::vector<int64_t> dims;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    int64_t dim;
    if (!parseInteger(parts[i], dim) || dim < 0) {
      error = "malformed dimension '" + parts[i] + "' in '" + typeText + "'";
      return nullptr;
    }
    dims.push_back(dim);
  }
  if (dims.size() > KILN_MAX_RANK) {
    error = "rank " + std::to_string(dims.size()) + " is above the maximum " +
            std::to_string(KILN_MAX_RANK);
    return nullptr;
  }

  std::string valuesText = spec.substr(equals + 1);
  for (char &c : valuesText)
    if (c == ',' || c == '[' || c == ']' || c == '\n' || c == '\t')
      c = ' ';
  std::vector<std::string> tokens;
  std::stringstream valueStream(valuesText);
  for (std::string token; valueStream >> token;)
    tokens.push_back(token);

  kiln_buffer *raw = nullptr;
  if (kiln_error *err = kiln_buffer_create(
          type, static_cast<int32_t>(dims.size()), dims.data(), &raw)) {
    error = kiln_error_message(err);
    kiln_error_free(err);
    return nullptr;
  }
  Buffer buffer(raw);
  int64_t count = kiln_buffer_element_count(raw);
  if (static_cast<int64_t>(tokens.size()) != count &&
      !(tokens.size() == 1 && count > 0)) {
    error = "'" + typeText + "' has " + std::to_string(count) +
            " elements but " + std::to_string(tokens.size()) +
            " values were given (give all of them, or one to fill the "
            "tensor)";
    return nullptr;
  }
  size_t size = kiln_element_type_size(type);
  char *data = static_cast<char *>(kiln_buffer_data(raw));
  for (int64_t i = 0; i < count; ++i) {
    const std::string &token = tokens.size() == 1 ? tokens[0] : tokens[i];
    if (!parseElement(type, token, data + i * size, error))
      return nullptr;
  }
  return buffer;
}

Buffer kiln::tooling::parseInput(const std::string &spec, std::string &error) {
  if (!spec.empty() && spec[0] == '@')
    return readTensorFile(spec.substr(1), error);
  return parseInline(spec, error);
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static void formatElement(std::ostringstream &os, kiln_element_type type,
                          const char *element) {
  char text[64];
  if (isFloat(type)) {
    int digits = type == KILN_ELEMENT_F64   ? 15
                 : type == KILN_ELEMENT_F32 ? 7
                                            : 4;
    std::snprintf(text, sizeof(text), "%.*g", digits, loadFloat(type, element));
  } else {
    std::snprintf(text, sizeof(text), "%lld",
                  static_cast<long long>(loadInt(type, element)));
  }
  os << text;
}

/// Prints dimension `dim` starting at element `offset`, eliding the middle
/// of long dimensions when `summarize` is set.
static void formatDim(std::ostringstream &os, kiln_buffer *buffer, int32_t dim,
                      int64_t offset, bool summarize) {
  const int64_t *dims = kiln_buffer_dims(buffer);
  int32_t rank = kiln_buffer_rank(buffer);
  kiln_element_type type = kiln_buffer_element_type(buffer);
  const char *data = static_cast<const char *>(kiln_buffer_data(buffer));
  size_t size = kiln_element_type_size(type);
  int64_t stride = 1;
  for (int32_t i = dim + 1; i < rank; ++i)
    stride *= dims[i];
  const int64_t edge = 3;
  os << "[";
  for (int64_t i = 0; i < dims[dim]; ++i) {
    if (summarize && dims[dim] > 2 * edge && i == edge) {
      os << "..., ";
      i = dims[dim] - edge - 1;
      continue;
    }
    if (dim + 1 == rank)
      formatElement(os, type, data + (offset + i) * size);
    else
      formatDim(os, buffer, dim + 1, offset + i * stride, summarize);
    if (i + 1 < dims[dim])
      os << ", ";
  }
  os << "]";
}

std::string kiln::tooling::formatBuffer(kiln_buffer *buffer,
                                        size_t maxElements) {
  std::ostringstream os;
  int32_t rank = kiln_buffer_rank(buffer);
  for (int32_t i = 0; i < rank; ++i)
    os << kiln_buffer_dims(buffer)[i] << "x";
  kiln_element_type type = kiln_buffer_element_type(buffer);
  os << kiln_element_type_name(type) << "=";
  if (rank == 0) {
    formatElement(os, type,
                  static_cast<const char *>(kiln_buffer_data(buffer)));
    return os.str();
  }
  bool summarize =
      static_cast<size_t>(kiln_buffer_element_count(buffer)) > maxElements;
  formatDim(os, buffer, 0, 0, summarize);
  return os.str();
}

std::string kiln::tooling::formatType(const kiln_tensor_type &type) {
  std::string text = "tensor<";
  for (int32_t i = 0; i < type.rank; ++i)
    text +=
        (type.dims[i] < 0 ? std::string("?") : std::to_string(type.dims[i])) +
        "x";
  return text + kiln_element_type_name(type.element_type) + ">";
}

//===----------------------------------------------------------------------===//
// Random inputs and flags
//===----------------------------------------------------------------------===//

Buffer kiln::tooling::makeRandomBuffer(const kiln_tensor_type &type,
                                       uint64_t seed, std::string &error) {
  for (int32_t i = 0; i < type.rank; ++i) {
    if (type.dims[i] < 0) {
      error = "the input has dynamic dims (" + formatType(type) +
              "); give it with --input";
      return nullptr;
    }
  }
  kiln_buffer *raw = nullptr;
  if (kiln_error *err =
          kiln_buffer_create(type.element_type, type.rank, type.dims, &raw)) {
    error = kiln_error_message(err);
    kiln_error_free(err);
    return nullptr;
  }
  Buffer buffer(raw);
  uint64_t state = seed * 0x9e3779b97f4a7c15ull + 1;
  size_t size = kiln_element_type_size(type.element_type);
  char *data = static_cast<char *>(kiln_buffer_data(raw));
  for (int64_t i = 0; i < kiln_buffer_element_count(raw); ++i) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    uint64_t bits = state * 0x2545f4914f6cdd1dull;
    if (isFloat(type.element_type))
      storeFloat(type.element_type,
                 static_cast<double>(bits >> 11) / 9007199254740992.0 * 2 - 1,
                 data + i * size);
    else if (type.element_type == KILN_ELEMENT_I1)
      data[i] = static_cast<char>(bits >> 63);
    else
      storeInt(type.element_type, static_cast<int64_t>(bits >> 60) - 8,
               data + i * size);
  }
  return buffer;
}

bool kiln::tooling::matchFlag(const std::vector<std::string> &args, size_t &i,
                              const std::string &name, std::string &value) {
  const std::string &arg = args[i];
  std::string prefix = "--" + name;
  if (arg.compare(0, prefix.size() + 1, prefix + "=") == 0) {
    value = arg.substr(prefix.size() + 1);
    return true;
  }
  if (arg == prefix && i + 1 < args.size()) {
    value = args[++i];
    return true;
  }
  return false;
}

bool kiln::tooling::parseCount(const std::string &text, long min, long max,
                               long &value) {
  if (text.empty() || text.size() > 19 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  char *end = nullptr;
  long parsed = std::strtol(text.c_str(), &end, 10);
  if (errno == ERANGE || *end || parsed < min || parsed > max)
    return false;
  value = parsed;
  return true;
}

std::string kiln::tooling::describeCountError(const std::string &name, long min,
                                              long max,
                                              const std::string &text) {
  return "--" + name + " takes a number from " + std::to_string(min) + " to " +
         std::to_string(max) + ", got '" + text + "'";
}

std::string kiln::tooling::describeFunction(const kiln_function *function) {
  // "name: type" where the module names the value.
  auto describe = [](const char *name, kiln_tensor_type type) {
    return (name ? std::string(name) + ": " : std::string()) + formatType(type);
  };
  std::string text = std::string(kiln_function_name(function)) + "(";
  for (size_t i = 0; i < kiln_function_input_count(function); ++i)
    text += (i ? ", " : "") + describe(kiln_function_input_name(function, i),
                                       kiln_function_input(function, i));
  text += ") -> (";
  for (size_t i = 0; i < kiln_function_output_count(function); ++i)
    text += (i ? ", " : "") + describe(kiln_function_output_name(function, i),
                                       kiln_function_output(function, i));
  return text + ")";
}

std::string kiln::tooling::listFunctions(const kiln_module *module) {
  std::string text;
  for (size_t i = 0; i < kiln_module_function_count(module); ++i)
    text += "  " + describeFunction(kiln_module_function_at(module, i)) + "\n";
  return text;
}
