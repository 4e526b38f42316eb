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
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <functional>
#include <string>

namespace kiln {

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
  /// path). Errors are diagnostics on `context`; null on failure.
  std::function<mlir::OwningOpRef<mlir::ModuleOp>(
      const llvm::MemoryBuffer &input, mlir::MLIRContext *context)>
      import;
};

} // namespace kiln

#endif // KILN_INPUT_IMPORTER_H
