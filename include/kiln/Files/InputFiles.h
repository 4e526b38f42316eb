//===- InputFiles.h - Files Kiln reads, checked -----------------*- C++ -*-===//
//
// Every file Kiln reads whole (models, external data, objects, databases,
// specs) goes through readInputFile: a regular file, read to its end, no
// larger than a limit. A FIFO or a device (also behind a link) is an error
// instead of a hang or an endless read; a file whose size the kernel does
// not know (/proc) is read by what it gives, not by its st_size.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FILES_INPUTFILES_H
#define KILN_FILES_INPUTFILES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace kiln {

/// The default limit of readInputFile: 64 GiB, more than any input Kiln
/// reads whole needs, less than a runaway read fills.
constexpr uint64_t kMaxInputFileBytes = uint64_t(64) << 30;

/// The whole of `path`, `what` naming it in errors ("model", "object
/// file"): an error when it is not a regular file (a folder, a FIFO, a
/// device, also behind a link), cannot be read, or holds more than
/// `maxBytes`.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readInputFile(llvm::StringRef path, llvm::StringRef what,
              uint64_t maxBytes = kMaxInputFileBytes);

/// Fails, saying why, unless `bytes` (`what` in errors) is an x86-64 ELF
/// relocatable object, or an archive of them, that defines each of
/// `functions` as a function (a global symbol of type STT_FUNC): a data
/// symbol called as a kernel would crash the call.
llvm::Error checkObjectDefinesFunctions(llvm::MemoryBufferRef bytes,
                                        llvm::StringRef what,
                                        llvm::ArrayRef<std::string> functions);

} // namespace kiln

#endif // KILN_FILES_INPUTFILES_H
