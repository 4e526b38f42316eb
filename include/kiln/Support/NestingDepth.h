//===- NestingDepth.h - Refuse text nested too deeply to parse --*- C++ -*-===//
//
// MLIR's parser descends recursively into regions, attribute and type
// brackets, so text nested a few thousand levels deep overflows the stack
// before any error can be reported. Every Kiln tool scans text it did not
// write for its bracket depth before parsing it, and refuses nesting past a
// limit that no real program comes near, with an error at the place.
// Plain C++: the scan knows MLIR's lexical rules, not MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_NESTINGDEPTH_H
#define KILN_SUPPORT_NESTINGDEPTH_H

#include <cstddef>
#include <optional>
#include <string_view>

namespace kiln {

/// The deepest nesting of brackets ({, (, [, <) Kiln parses. Each region
/// takes one or two levels (`({...})` in generic form), each attribute or
/// type bracket one; real programs stay below a hundred. At this depth
/// the parser needs about 2 MB of stack, a quarter of the usual 8 MB.
constexpr unsigned kMaxNestingDepth = 1000;

/// The offset in `text` of the bracket that opens level `maxDepth + 1`, or
/// nullopt when `text` never nests that deep. Brackets in string literals
/// and `//` comments do not count, nor do `->`, `>=` and `<=`; a closing
/// bracket without an opening one is left for the parser to report.
std::optional<std::size_t>
findExcessiveNesting(std::string_view text,
                     unsigned maxDepth = kMaxNestingDepth);

} // namespace kiln

#endif // KILN_SUPPORT_NESTINGDEPTH_H
