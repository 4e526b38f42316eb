//===- npy_fuzzer.cpp - The .npy reader of kiln-run and kiln-benchmark ----===//
//
// Any bytes: a clear error or a buffer, never a crash, a hang or a read
// past the data.
//
//===----------------------------------------------------------------------===//

#include "ValueIO.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string error;
  kiln::tooling::Buffer buffer = kiln::tooling::parseNpy(
      std::string(reinterpret_cast<const char *>(data), size), "fuzz.npy",
      error);
  if (!buffer && error.empty())
    __builtin_trap(); // a failure must say why
  return 0;
}
