//===- ValueIO.h - Tensors in and out of Kiln's tools -----------*- C++ -*-===//
//
// What kiln-run and kiln-benchmark share: parsing inputs (inline values,
// .npy files, ONNX TensorProto files), writing .npy files, printing and
// comparing buffers, random inputs. Uses only the runtime's C API.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TOOLING_VALUEIO_H
#define KILN_TOOLS_KILN_TOOLING_VALUEIO_H

#include "kiln/Support/OutputFile.h"
#include "kiln_runtime.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln::tooling {

struct BufferRelease {
  void operator()(kiln_buffer *buffer) const { kiln_buffer_release(buffer); }
};
using Buffer = std::unique_ptr<kiln_buffer, BufferRelease>;

/// Parses an input: `@path.npy`, `@path.pb` (an ONNX TensorProto), or inline
/// `2x3xf32=1,2,3,4,5,6` (values separated by commas or spaces, brackets
/// ignored; one value fills the whole tensor; `f32=1.5` is a 0-d tensor). Sets
/// `error` on failure.
Buffer parseInput(const std::string &spec, std::string &error);

/// Reads a .npy file (little-endian, C order; known by its magic) or a
/// serialized ONNX TensorProto (a name ending in `.pb`); only a regular
/// file, so a folder, a FIFO or a device is an error instead of a hang.
Buffer readTensorFile(const std::string &path, std::string &error);

/// Parses the bytes of a .npy file (`name` for errors).
Buffer parseNpy(const std::string &contents, const std::string &name,
                std::string &error);

/// Parses the bytes of a serialized ONNX TensorProto (TensorProto.cpp):
/// dims, data type, and its data in raw_data or the typed fields. Strings,
/// complex numbers and external data are errors.
Buffer parseTensorProto(const std::string &contents, const std::string &name,
                        std::string &error);

/// Writes `buffer` as a .npy file into `file` and commits it (OutputFile:
/// regular files replaced atomically, devices and FIFOs written in place).
bool writeNpy(kiln::OutputFile &file, kiln_buffer *buffer, std::string &error);

/// Element access: whether `type` is a float type, and the element at
/// `source` read as a double (float types) or an int64 (the rest, signed).
bool isFloat(kiln_element_type type);
double loadFloat(kiln_element_type type, const char *source);
int64_t loadInt(kiln_element_type type, const char *source);

/// `2x3xf32=[[1, 2, 3], [4, 5, 6]]`, elided with `...` past `maxElements`.
std::string formatBuffer(kiln_buffer *buffer, size_t maxElements);

/// `tensor<?x3xf32>`.
std::string formatType(const kiln_tensor_type &type);

/// A function's signature: "name(tensor<...>, ...) -> (tensor<...>)".
std::string describeFunction(const kiln_function *function);

/// Every function of `module`, one signature a line, indented.
std::string listFunctions(const kiln_module *module);

/// How close a float output must be to the expected one: numpy.isclose's
/// rule, with ONNX's backend tests' default tolerances.
struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

/// Compares `actual` with `expected` (Compare.cpp): the same element type
/// and shape, floats within `tolerance` (NaN matches NaN), the rest
/// exactly. `report` says how many elements matched, or where the first
/// difference is, how many differ and the largest difference.
bool compareBuffers(kiln_buffer *actual, kiln_buffer *expected,
                    const Tolerance &tolerance, std::string &report);

/// A buffer of `type` (all dims static) filled with reproducible values in
/// [-1, 1) (floats) or [-8, 8) (integers).
Buffer makeRandomBuffer(const kiln_tensor_type &type, uint64_t seed,
                        std::string &error);

/// Parses the common `--name=value` and `--name value` flag forms: returns
/// true and sets `value` when `args[i]` is flag `name`, advancing `i` past
/// a separate value.
bool matchFlag(const std::vector<std::string> &args, size_t &i,
               const std::string &name, std::string &value);

/// Parses a decimal count from `min` to `max`; false for anything else
/// (a sign, other characters, a value out of range or out of `long`).
bool parseCount(const std::string &text, long min, long max, long &value);

/// What a flag's count may be: "--NAME takes a number from MIN to MAX, got
/// 'TEXT'".
std::string describeCountError(const std::string &name, long min, long max,
                               const std::string &text);

/// The limits of the tools' counts.
constexpr long kMaxThreads = 4096;
constexpr long kMaxCalls = 1000000;

} // namespace kiln::tooling

#endif // KILN_TOOLS_KILN_TOOLING_VALUEIO_H
