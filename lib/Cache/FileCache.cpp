//===- FileCache.cpp - A folder of results named by their inputs ----------===//

#include "kiln/Cache/FileCache.h"
#include "kiln/Support/OutputFile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <unistd.h>
#include <vector>

using namespace kiln;

llvm::Expected<FileCache> FileCache::open(llvm::StringRef dir,
                                          llvm::StringRef suffix,
                                          uint64_t maxBytes,
                                          llvm::StringRef flag) {
  if (std::error_code error = llvm::sys::fs::create_directories(dir))
    return llvm::createStringError(
        flag + "='" + dir + "': cannot create the folder: " + error.message());
  if (!llvm::sys::fs::is_directory(dir))
    return llvm::createStringError(flag + "='" + dir +
                                   "': it exists and is not a folder");
  if (llvm::sys::fs::access(dir, llvm::sys::fs::AccessMode::Write))
    return llvm::createStringError(flag + "='" + dir +
                                   "': the folder cannot be written");
  return FileCache(dir.str(), suffix.str(), maxBytes);
}

std::string FileCache::makeKey(llvm::ArrayRef<llvm::StringRef> parts) {
  llvm::SHA256 hash;
  for (llvm::StringRef part : parts) {
    hash.update(std::to_string(part.size()));
    hash.update(":");
    hash.update(part);
  }
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

std::string FileCache::getEntryPath(llvm::StringRef key) const {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, key + suffix);
  return std::string(path);
}

static std::string hashContent(llvm::StringRef content) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(content)),
                     /*LowerCase=*/true);
}

static constexpr llvm::StringLiteral kHeader = "kiln-cache-entry ";

/// The entry at `path`, which must be entry `key` whole.
static FileCache::Lookup readEntry(llvm::StringRef path, llvm::StringRef key) {
  FileCache::Lookup lookup;
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return lookup; // no entry
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    lookup.problem = "it is not a regular file";
    return lookup;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> entry =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!entry) {
    lookup.problem = "it cannot be read: " + entry.getError().message();
    return lookup;
  }
  llvm::StringRef text = (*entry)->getBuffer();
  size_t end = text.find('\n');
  llvm::StringRef header =
      end == llvm::StringRef::npos ? "" : text.take_front(end);
  bool headed = header.consume_front(kHeader);
  auto [storedKey, storedHash] = header.split(' ');
  if (!headed || storedKey.empty() || storedHash.size() != 64) {
    lookup.problem = "it does not start with a cache entry's header";
    return lookup;
  }
  if (storedKey != key) {
    lookup.problem = "it holds the entry of another key (" + storedKey.str() +
                     "): a file copied or renamed into the cache";
    return lookup;
  }
  llvm::StringRef content = text.drop_front(end + 1);
  if (storedHash != hashContent(content)) {
    lookup.problem = "its content does not match its hash (truncated, "
                     "overwritten or edited)";
    return lookup;
  }
  lookup.content = content.str();
  return lookup;
}

FileCache::Lookup FileCache::read(llvm::StringRef key) const {
  std::string path = getEntryPath(key);
  Lookup lookup = readEntry(path, key);
  if (!lookup.content) {
    if (!lookup.problem.empty())
      lookup.problem = "cache entry '" + path +
                       "' is not used: " + lookup.problem +
                       "; it is made again";
    return lookup;
  }
  // Used now: the last to be trimmed.
  int fd;
  if (!llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenExisting,
                                       llvm::sys::fs::OF_Append)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(
        fd, std::chrono::system_clock::now());
    ::close(fd);
  }
  return lookup;
}

void kiln::writeCacheFile(llvm::StringRef path, llvm::StringRef content) {
  // The cache is Kiln's own folder: whatever else sits at the path (a
  // FIFO, a link, an empty folder) is replaced, never written through.
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status, /*follow=*/false) &&
      status.type() != llvm::sys::fs::file_type::regular_file) {
    // An empty folder goes too; one with files in it is left alone (and
    // the entry stays a miss).
    if (status.type() == llvm::sys::fs::file_type::directory_file)
      (void)llvm::sys::fs::remove(path);
    else
      ::unlink(path.str().c_str());
  }
  std::string error;
  std::unique_ptr<OutputFile> file = OutputFile::open(path.str(), error);
  if (file && file->write(content.data(), content.size(), error))
    file->commit(error);
}

void FileCache::write(llvm::StringRef key, llvm::StringRef content) const {
  std::string text = (kHeader + key + " " + hashContent(content) + "\n").str();
  text += content;
  writeCacheFile(getEntryPath(key), text);
}

void FileCache::trim() const {
  if (maxBytes == 0)
    return;
  struct Entry {
    std::string path;
    uint64_t size;
    llvm::sys::TimePoint<> used;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.ends_with(suffix))
      continue;
    llvm::sys::fs::file_status status;
    if (llvm::sys::fs::status(it->path(), status, /*follow=*/false) ||
        status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    entries.push_back(
        {it->path(), status.getSize(), status.getLastModificationTime()});
    total += status.getSize();
  }
  if (total <= maxBytes)
    return;
  // Oldest first; ties by name, so that compiles trimming at once agree.
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return a.used != b.used ? a.used < b.used : a.path < b.path;
  });
  for (const Entry &entry : entries) {
    if (total <= maxBytes)
      break;
    // Another compile may have removed it already; either way it is gone.
    (void)llvm::sys::fs::remove(entry.path);
    total -= entry.size;
  }
}

llvm::Expected<uint64_t> kiln::parseByteSize(llvm::StringRef text,
                                             llvm::StringRef flag) {
  llvm::StringRef rest = text.trim();
  uint64_t value;
  if (rest.consumeInteger(10, value))
    return llvm::createStringError(
        flag + "='" + text + "': expected a size such as 1G, 512M or 1000000");
  rest = rest.trim();
  unsigned shift = 0;
  if (!rest.empty()) {
    switch (llvm::toLower(rest.front())) {
    case 'k':
      shift = 10;
      break;
    case 'm':
      shift = 20;
      break;
    case 'g':
      shift = 30;
      break;
    case 't':
      shift = 40;
      break;
    default:
      break;
    }
    if (shift)
      rest = rest.drop_front();
    if (shift && (rest == "iB" || rest == "ib"))
      rest = "";
    if (rest == "B" || rest == "b")
      rest = "";
  }
  if (!rest.empty())
    return llvm::createStringError(flag + "='" + text + "': unknown unit '" +
                                   rest +
                                   "'; use K, M, G or T (powers of 1024)");
  if (shift && value > (UINT64_MAX >> shift))
    return llvm::createStringError(flag + "='" + text + "' is too large");
  return value << shift;
}
