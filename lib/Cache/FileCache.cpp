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

/// The content of the entry at `path` if its hash matches.
static std::optional<std::string> readEntry(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status) ||
      status.type() != llvm::sys::fs::file_type::regular_file)
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> entry =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!entry)
    return std::nullopt;
  llvm::StringRef text = (*entry)->getBuffer();
  if (text.size() < 65 || text[64] != '\n')
    return std::nullopt;
  llvm::StringRef content = text.drop_front(65);
  if (text.take_front(64) != hashContent(content))
    return std::nullopt;
  return content.str();
}

std::optional<std::string> FileCache::read(llvm::StringRef key) const {
  std::string path = getEntryPath(key);
  std::optional<std::string> content = readEntry(path);
  if (!content)
    return std::nullopt;
  // Used now: the last to be trimmed.
  int fd;
  if (!llvm::sys::fs::openFileForWrite(path, fd, llvm::sys::fs::CD_OpenExisting,
                                       llvm::sys::fs::OF_Append)) {
    (void)llvm::sys::fs::setLastAccessAndModificationTime(
        fd, std::chrono::system_clock::now());
    ::close(fd);
  }
  return content;
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
  std::string text = hashContent(content) + "\n";
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
