//===- inline_values_fuzzer.cpp - kiln-run's inline input syntax ----------===//
//
// `2x3xf32=1,2,3,4,5,6` and every malformed variant: a clear error or a
// buffer, never a crash. Specs starting with '@' name files and are left
// to the .npy fuzzer.
//
//===----------------------------------------------------------------------===//

#include "ValueIO.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string spec(reinterpret_cast<const char *>(data), size);
  if (!spec.empty() && spec.front() == '@')
    return 0;
  // One value fills a whole tensor, whatever its size: a legitimate
  // 100000x100000xf32=0 allocates 40 GB. Shapes past 2^24 elements are
  // left out, so that what is found is a bug, not an allocation.
  uint64_t elements = 1, dim = 0;
  for (char c : spec.substr(0, spec.find('='))) {
    if (c >= '0' && c <= '9') {
      dim = dim * 10 + (c - '0');
      if (dim > (1u << 24))
        return 0;
    } else if (c == 'x') {
      elements *= dim ? dim : 1;
      dim = 0;
      if (elements > (1u << 24))
        return 0;
    }
  }
  std::string error;
  kiln::tooling::Buffer buffer = kiln::tooling::parseInput(spec, error);
  if (!buffer && error.empty())
    __builtin_trap();
  if (buffer) // printing what was parsed must work too
    (void)kiln::tooling::formatBuffer(buffer.get(), 64);
  return 0;
}
