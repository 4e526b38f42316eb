//===- InputFiles.h - Files Kiln reads, checked -----------------*- C++ -*-===//
//
// The compiler's way to read a file whole (programs, models, external
// data, objects, databases, specs): kiln/Support/ReadFile.h's rules behind
// llvm::Expected and MemoryBuffer, and what an object file must define.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FILES_INPUTFILES_H
#define KILN_FILES_INPUTFILES_H

#include "kiln/Support/ReadFile.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kiln {

/// The whole of `path`, `what` naming it in errors ("model", "object
/// file"): an error when it is not a regular file (a folder, a FIFO, a
/// device, also behind a link), cannot be read, or holds more than
/// `maxBytes`.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, llvm::StringRef what,
              uint64_t maxBytes = kMaxReadFileBytes);

/// readInputFile, or all of stdin for "-".
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFileOrStdin(llvm::StringRef path, llvm::StringRef what);

/// Bytes [offset, offset + length) of the regular file `path` (to its end
/// without `length`), checked as readInputFile checks files but read alone:
/// a slice of a large weights file costs its own size. An error when the
/// range lies past the end of the file.
llvm::Expected<std::string> readInputFileRange(llvm::StringRef path,
                                               llvm::StringRef what,
                                               uint64_t offset,
                                               std::optional<uint64_t> length);

/// Fails, saying why, unless `bytes` (`what` in errors) is an x86-64 ELF
/// relocatable object, or an archive of them, that defines each of
/// `functions` as a function (a global symbol of type STT_FUNC): a data
/// symbol called as a kernel would crash the call.
llvm::Error checkObjectDefinesFunctions(llvm::MemoryBufferRef bytes,
                                        llvm::StringRef what,
                                        llvm::ArrayRef<std::string> functions);

} // namespace kiln

#endif // KILN_FILES_INPUTFILES_H
