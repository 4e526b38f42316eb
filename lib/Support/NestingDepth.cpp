//===- NestingDepth.cpp - Refuse text nested too deeply to parse ----------===//

#include "kiln/Support/NestingDepth.h"

std::optional<std::size_t> kiln::findExcessiveNesting(std::string_view text,
                                                      unsigned maxDepth) {
  unsigned depth = 0;
  std::size_t size = text.size();
  for (std::size_t i = 0; i < size; ++i) {
    char c = text[i];
    char next = i + 1 < size ? text[i + 1] : '\0';
    switch (c) {
    case '/':
      if (next == '/')
        while (i < size && text[i] != '\n')
          ++i;
      break;
    case '"':
      // To the closing quote; a backslash escapes the next character.
      for (++i; i < size && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '-':
    case '<':
    case '>':
      if ((c == '-' && next == '>') || next == '=') {
        ++i;
        break;
      }
      if (c == '-')
        break;
      if (c == '>') {
        depth -= depth > 0;
        break;
      }
      [[fallthrough]];
    case '{':
    case '(':
    case '[':
      if (++depth > maxDepth)
        return i;
      break;
    case '}':
    case ')':
    case ']':
      depth -= depth > 0;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}
