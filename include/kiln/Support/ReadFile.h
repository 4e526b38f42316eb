//===- ReadFile.h - Reading files the way every Kiln tool does --*- C++ -*-===//
//
// A file Kiln reads whole is a regular file (also behind a link), opened
// without waiting (a FIFO is refused, not waited on), read to its end
// whatever its size claims (/proc files say 0), and no larger than a limit:
// never a hang, an endless read of a device, or an abort on a read error.
// POSIX only, no LLVM: the runtime's tools use it too.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_READFILE_H
#define KILN_SUPPORT_READFILE_H

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>

namespace kiln {

/// Whole files are read up to this many bytes (64 GiB) by default.
constexpr uint64_t kMaxReadFileBytes = uint64_t(64) << 30;

/// "a folder", "a FIFO", "a character device", ... for `mode`'s file type.
const char *describeFileKind(mode_t mode);

/// Reads the regular file `path` whole into `contents`; false with
/// `error` saying why (without the path) when it is not a regular file,
/// cannot be read, or holds more than `maxBytes`.
bool readRegularFile(const std::string &path, std::string &contents,
                     std::string &error, uint64_t maxBytes = kMaxReadFileBytes);

/// Reads bytes [offset, offset + length) of the regular file `path` (to its
/// end without `length`) into `contents`, the rest untouched; false with
/// `error` when the range is not all there.
bool readRegularFileRange(const std::string &path, uint64_t offset,
                          std::optional<uint64_t> length, std::string &contents,
                          std::string &error);

} // namespace kiln

#endif // KILN_SUPPORT_READFILE_H
