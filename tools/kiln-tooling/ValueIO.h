//===- ValueIO.h - Tensors in and out of Kiln's tools -----------*- C++ -*-===//
//
// What kiln-run and kiln-benchmark share: parsing inputs (inline values and
// .npy files), writing .npy files, printing buffers, random inputs. Uses
// only the runtime's C API.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TOOLING_VALUEIO_H
#define KILN_TOOLS_KILN_TOOLING_VALUEIO_H

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

/// Parses an input: `@path.npy`, or inline `2x3xf32=1,2,3,4,5,6` (values
/// separated by commas or spaces, brackets ignored; one value fills the
/// whole tensor; `f32=1.5` is a 0-d tensor). Sets `error` on failure.
Buffer parseInput(const std::string &spec, std::string &error);

/// Reads a .npy file (little-endian, C order).
Buffer readNpy(const std::string &path, std::string &error);

/// Writes `buffer` as a .npy file, through a temporary file renamed into
/// place.
bool writeNpy(const std::string &path, kiln_buffer *buffer,
              std::string &error);

/// `2x3xf32=[[1, 2, 3], [4, 5, 6]]`, elided with `...` past `maxElements`.
std::string formatBuffer(kiln_buffer *buffer, size_t maxElements);

/// `tensor<?x3xf32>`.
std::string formatType(const kiln_tensor_type &type);

/// A buffer of `type` (all dims static) filled with reproducible values in
/// [-1, 1) (floats) or [-8, 8) (integers).
Buffer makeRandomBuffer(const kiln_tensor_type &type, uint64_t seed,
                        std::string &error);

/// Parses the common `--name=value` and `--name value` flag forms: returns
/// true and sets `value` when `args[i]` is flag `name`, advancing `i` past
/// a separate value.
bool matchFlag(const std::vector<std::string> &args, size_t &i,
               const std::string &name, std::string &value);

} // namespace kiln::tooling

#endif // KILN_TOOLS_KILN_TOOLING_VALUEIO_H
