//===- CheckNesting.h - NestingDepth for code that parses MLIR --*- C++ -*-===//
//
// findExcessiveNesting as an MLIR diagnostic at the offending bracket, for
// every place Kiln parses text it did not write: programs, tuning specs,
// preprocessing specs and substitutes, preprocessing tools' output.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_CHECKNESTING_H
#define KILN_SUPPORT_CHECKNESTING_H

#include "kiln/Support/NestingDepth.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/SourceMgr.h"

namespace kiln {

/// Fails, with an error at the bracket, when `text` (called `name` in
/// diagnostics) nests deeper than kMaxNestingDepth. Bytecode is not
/// scanned: its reader keeps nested regions on a worklist, but nested
/// attributes and types in bytecode are not bounded here.
inline mlir::LogicalResult checkNesting(llvm::StringRef text,
                                        llvm::StringRef name,
                                        mlir::MLIRContext *context) {
  if (mlir::isBytecode(llvm::MemoryBufferRef(text, name)))
    return mlir::success();
  std::optional<std::size_t> offset =
      findExcessiveNesting(std::string_view(text.data(), text.size()));
  if (!offset)
    return mlir::success();
  llvm::StringRef before = text.take_front(*offset);
  unsigned line = 1 + before.count('\n');
  std::size_t lineStart = before.rfind('\n');
  unsigned column =
      *offset - (lineStart == llvm::StringRef::npos ? 0 : lineStart + 1) + 1;
  mlir::emitError(mlir::FileLineColLoc::get(context, name, line, column))
      << "nesting deeper than " << kMaxNestingDepth
      << " levels of brackets and regions; Kiln does not parse text nested "
         "this deeply (the parser would run out of stack)";
  return mlir::failure();
}

/// The same for the main buffer of `sourceMgr`.
inline mlir::LogicalResult checkNesting(const llvm::SourceMgr &sourceMgr,
                                        mlir::MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return checkNesting(buffer->getBuffer(), buffer->getBufferIdentifier(),
                      context);
}

} // namespace kiln

#endif // KILN_SUPPORT_CHECKNESTING_H
