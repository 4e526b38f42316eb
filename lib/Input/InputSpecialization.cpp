//===- InputSpecialization.cpp - --kiln-input-shape and --kiln-dim --------===//
//
// Reads the sizes a user gives for a model's symbolic dimensions; the
// importer applies them.
//
//===----------------------------------------------------------------------===//

#include "kiln/Input/Importer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace kiln;

/// A size: decimal digits, at most 2^40 (no tensor holds more elements).
static bool parseSize(llvm::StringRef text, int64_t &size) {
  unsigned long long value;
  if (text.empty() || !llvm::all_of(text, llvm::isDigit) ||
      llvm::getAsUnsignedInteger(text, 10, value) || value > (1ull << 40))
    return false;
  size = static_cast<int64_t>(value);
  return true;
}

llvm::Expected<InputSpecialization>
kiln::parseInputSpecialization(llvm::ArrayRef<std::string> shapes,
                               llvm::ArrayRef<std::string> dims) {
  InputSpecialization specialization;
  llvm::StringSet<> inputs, symbols;
  for (const std::string &value : shapes) {
    auto [input, sizes] = llvm::StringRef(value).rsplit(':');
    if (input.empty() || sizes.empty() || input == value)
      return llvm::createStringError(
          "--kiln-input-shape='" + value +
          "': expected INPUT:DxDx... such as x:1x3x224x224 or 0:1x3x224x224 "
          "(the input's name or its position)");
    if (!inputs.insert(input).second)
      return llvm::createStringError("--kiln-input-shape gives input '" +
                                     input + "' twice");
    InputSpecialization::Shape shape{input.str(), {}};
    // "scalar" (no dims) is a shape of rank 0.
    if (sizes != "scalar")
      for (llvm::StringRef size : llvm::split(sizes, 'x')) {
        int64_t dim;
        if (!parseSize(size, dim))
          return llvm::createStringError(
              "--kiln-input-shape='" + value + "': '" + size +
              "' is not a size (digits, at most 2^40; 'scalar' for rank 0)");
        shape.dims.push_back(dim);
      }
    specialization.shapes.push_back(std::move(shape));
  }
  for (const std::string &value : dims) {
    auto [symbol, size] = llvm::StringRef(value).split('=');
    int64_t dim;
    if (symbol.empty() || size.empty() || symbol == value ||
        !parseSize(size, dim))
      return llvm::createStringError(
          "--kiln-dim='" + value +
          "': expected SYMBOL=N such as batch=1 (N digits, at most 2^40)");
    if (!symbols.insert(symbol).second)
      return llvm::createStringError("--kiln-dim gives '" + symbol + "' twice");
    specialization.dims.emplace_back(symbol.str(), dim);
  }
  return specialization;
}
