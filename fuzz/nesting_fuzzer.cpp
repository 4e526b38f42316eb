//===- nesting_fuzzer.cpp - The bracket-depth scan before parsing ---------===//
//
// Any text: the scan ends, and an offset it returns is inside the text, at
// an opening bracket.
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/NestingDepth.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  for (unsigned depth : {0u, 1u, 7u, 1000u}) {
    std::optional<size_t> offset = kiln::findExcessiveNesting(text, depth);
    if (offset &&
        (*offset >= size || (text[*offset] != '{' && text[*offset] != '(' &&
                             text[*offset] != '[' && text[*offset] != '<')))
      __builtin_trap();
  }
  return 0;
}
