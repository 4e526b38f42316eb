//===- FileCache.h - A folder of results named by their inputs -*- C++ -*-===//
//
// Compiles that share a folder share what they computed: an entry is named
// by a hash of everything that determines it (the caller's key) and holds a
// header line, "kiln-cache-entry <key> <SHA-256 of the content>" (both in
// hex), and the content.
//
//   - Reads check both: an entry whose key is not the one asked for (a file
//     copied or renamed from another entry) or whose content does not match
//     its hash (truncated, overwritten, edited) is a miss that says why,
//     rebuilt and replaced, never used; so is a special file (a FIFO, a
//     link to a device).
//   - Writes are atomic (OutputFile: a temporary file renamed into place),
//     so compiles that share the folder at once read whole entries or none.
//   - A read refreshes the entry's modification time; trim() removes the
//     least recently used entries until the folder holds at most its limit.
//
// Failures to write or trim only cost a miss later: they are not errors.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CACHE_FILECACHE_H
#define KILN_CACHE_FILECACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln {

class FileCache {
public:
  /// Opens folder `dir` (created when missing), whose entries end in
  /// `suffix` and take at most `maxBytes` after trim() (0: no limit).
  /// `flag` names the option that gave the folder, in errors.
  static llvm::Expected<FileCache> open(llvm::StringRef dir,
                                        llvm::StringRef suffix,
                                        uint64_t maxBytes,
                                        llvm::StringRef flag);

  /// A key for an entry: the SHA-256 in hex of `parts`, each with its
  /// length, so that no two lists of parts share a key.
  static std::string makeKey(llvm::ArrayRef<llvm::StringRef> parts);

  /// The path of the entry `key`.
  std::string getEntryPath(llvm::StringRef key) const;

  /// What a read found.
  struct Lookup {
    /// The entry's content, when it exists and is whole.
    std::optional<std::string> content;
    /// Why an entry that exists cannot be used ("" for a hit, or when there
    /// is no entry): the caller warns with it.
    std::string problem;
  };

  /// Entry `key`.
  Lookup read(llvm::StringRef key) const;

  /// Stores `content` as entry `key`.
  void write(llvm::StringRef key, llvm::StringRef content) const;

  /// Removes the least recently used entries (and the other cache's
  /// damaged ones) until the entries take at most the limit.
  void trim() const;

  llvm::StringRef getDirectory() const { return dir; }

private:
  FileCache(std::string dir, std::string suffix, uint64_t maxBytes)
      : dir(std::move(dir)), suffix(std::move(suffix)), maxBytes(maxBytes) {}

  std::string dir;
  std::string suffix;
  uint64_t maxBytes;
};

/// Writes `content` to `path` in a cache folder atomically, replacing
/// whatever is there (a file, a FIFO, a link: never written through).
/// Failures only cost a miss later.
void writeCacheFile(llvm::StringRef path, llvm::StringRef content);

/// Parses a size such as "1G", "512M", "64k" or "1000" (bytes; K, M, G, T
/// are powers of 1024, with an optional "iB" or "B"). `flag` names the
/// option in errors.
llvm::Expected<uint64_t> parseByteSize(llvm::StringRef text,
                                       llvm::StringRef flag);

} // namespace kiln

#endif // KILN_CACHE_FILECACHE_H
