//===- module_file_fuzzer.cpp - What the runtime checks before dlopen -----===//
//
// Any bytes, as they are and sealed with a valid trailer (so that the ELF
// checks behind the checksum are reached): an answer, never a crash or a
// read past the data. Nothing is handed to the dynamic loader here.
//
//===----------------------------------------------------------------------===//

#include "kiln_module_abi.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

// From the runtime's internal.h (C, not includable from C++).
extern "C" const char *kiln_check_module_bytes(const unsigned char *data,
                                               uint64_t size);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Exactly `size` bytes on the heap, so that AddressSanitizer sees any read
  // past them.
  std::vector<uint8_t> bytes(data, data + size);
  (void)kiln_check_module_bytes(bytes.data(), bytes.size());
  (void)kiln_check_elf_shared_object(bytes.data(), bytes.size());

  bytes.resize(size + KILN_MODULE_TRAILER_SIZE);
  kiln_module_make_trailer(data, size, bytes.data() + size);
  const char *problem = kiln_check_module_bytes(bytes.data(), bytes.size());
  // Sealed, the only objections left are the ELF checks'.
  if (problem != kiln_check_elf_shared_object(data, size))
    __builtin_trap();
  return 0;
}
