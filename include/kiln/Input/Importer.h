//===- Importer.h - Reading programs that are not MLIR ----------*- C++ -*-===//
//
// An importer turns a file in another format (an ONNX model) into an MLIR
// module before the input phase. Plugins contribute importers
// (Plugin::getInputImporters); the compile driver picks one by the file's
// contents or by --kiln-input-type.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_INPUT_IMPORTER_H
#define KILN_INPUT_IMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

/// Sizes the user gives at compile time for a model's symbolic
/// dimensions (--kiln-input-shape, --kiln-dim), checked for form by the
/// driver and applied by the importer before it reads any shape.
struct InputSpecialization {
  /// One input's whole shape, named by the input's name or, as digits, by
  /// its position among the inputs.
  struct Shape {
    std::string input;
    std::vector<int64_t> dims;
  };
  std::vector<Shape> shapes;
  /// A symbolic dimension's size wherever it appears.
  std::vector<std::pair<std::string, int64_t>> dims;

  bool empty() const { return shapes.empty() && dims.empty(); }
};

/// Reads one non-MLIR format into a module.
struct InputImporter {
  /// The input type that selects it (`--kiln-input-type=NAME`), such as
  /// "onnx"; an input conversion of the same name usually lowers what it
  /// produces.
  std::string name;
  /// What it reads, for messages: "an ONNX model".
  std::string description;
  /// True when `contents` (a whole file) is in this importer's format. It
  /// must be cheap and must not accept MLIR text or bytecode.
  std::function<bool(llvm::StringRef contents)> recognizes;
  /// Builds the module from `input` (its buffer identifier is the file's
  /// path), with the sizes `specialization` gives (an importer that has no
  /// symbolic sizes refuses a non-empty one). Errors are diagnostics on
  /// `context`; null on failure.
  std::function<mlir::OwningOpRef<mlir::ModuleOp>(
      const llvm::MemoryBuffer &input, mlir::MLIRContext *context,
      const InputSpecialization &specialization)>
      import;
};

/// Reads --kiln-input-shape (INPUT:DxDx..., a size of 0 allowed) and
/// --kiln-dim (SYMBOL=N) values; an error names the flag and the value.
llvm::Expected<InputSpecialization>
parseInputSpecialization(llvm::ArrayRef<std::string> shapes,
                         llvm::ArrayRef<std::string> dims);

} // namespace kiln

#endif // KILN_INPUT_IMPORTER_H
