//===- module_info_fuzzer.cpp - The runtime's metadata parser -------------===//
//
// Any text as a module's kiln_module_info: a clear error or a parse, never
// a crash or a leak.
//
//===----------------------------------------------------------------------===//

#include "kiln_runtime.h"

#include <cstddef>
#include <cstdint>
#include <string>

// From the runtime's internal.h (C, not includable from C++).
extern "C" kiln_error *kiln_module_check_info(kiln_runtime *runtime,
                                              const char *text);

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static kiln_runtime *runtime = [] {
    kiln_runtime_options options = {};
    options.threads = 1;
    kiln_runtime *created = nullptr;
    if (kiln_runtime_create(&options, &created))
      __builtin_trap();
    return created;
  }();
  std::string text(reinterpret_cast<const char *>(data), size);
  if (kiln_error *error = kiln_module_check_info(runtime, text.c_str())) {
    if (!kiln_error_message(error) || !*kiln_error_message(error))
      __builtin_trap();
    kiln_error_free(error);
  }
  return 0;
}
