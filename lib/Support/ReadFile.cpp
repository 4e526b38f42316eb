//===- ReadFile.cpp - Reading files the way every Kiln tool does ----------===//

#include "kiln/Support/ReadFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;

const char *kiln::describeFileKind(mode_t mode) {
  if (S_ISDIR(mode))
    return "a folder";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  return "not a regular file";
}

namespace {
/// A file opened for reading that is regular; closed when it goes.
class RegularFile {
public:
  ~RegularFile() {
    if (fd >= 0)
      ::close(fd);
  }

  bool open(const std::string &path, std::string &error) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; the type
    // check refuses it before any read.
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat status;
    if (fd < 0 || ::fstat(fd, &status) != 0) {
      error = std::strerror(errno);
      return false;
    }
    if (!S_ISREG(status.st_mode)) {
      error = std::string("it is ") + describeFileKind(status.st_mode) +
              ", not a regular file";
      return false;
    }
    size = static_cast<uint64_t>(status.st_size);
    return true;
  }

  /// Appends at most `limit` bytes from `offset` on to `contents`, until
  /// the end of the file; false on a read error.
  bool read(uint64_t offset, uint64_t limit, std::string &contents,
            std::string &error) const {
    char chunk[1 << 16];
    while (limit > 0) {
      size_t want =
          static_cast<size_t>(std::min<uint64_t>(limit, sizeof(chunk)));
      ssize_t got = ::pread(fd, chunk, want, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0) {
        error = std::strerror(errno);
        return false;
      }
      if (got == 0)
        break;
      contents.append(chunk, static_cast<size_t>(got));
      offset += static_cast<uint64_t>(got);
      limit -= static_cast<uint64_t>(got);
    }
    return true;
  }

  uint64_t size = 0;

private:
  int fd = -1;
};
} // namespace

bool kiln::readRegularFile(const std::string &path, std::string &contents,
                           std::string &error, uint64_t maxBytes) {
  RegularFile file;
  if (!file.open(path, error))
    return false;
  auto tooLarge = [&] {
    error = "it holds more than the " + std::to_string(maxBytes) +
            " bytes Kiln reads";
    return false;
  };
  if (file.size > maxBytes)
    return tooLarge();
  contents.clear();
  contents.reserve(static_cast<size_t>(file.size));
  // One byte past the limit tells whether the file goes on.
  if (!file.read(0, maxBytes + 1, contents, error))
    return false;
  if (contents.size() > maxBytes)
    return tooLarge();
  return true;
}

bool kiln::readRegularFileRange(const std::string &path, uint64_t offset,
                                std::optional<uint64_t> length,
                                std::string &contents, std::string &error) {
  RegularFile file;
  if (!file.open(path, error))
    return false;
  if (offset > file.size || (length && *length > file.size - offset)) {
    error = "it has " + std::to_string(file.size) + " bytes, not bytes " +
            std::to_string(offset) + " to " +
            std::to_string(offset + length.value_or(0));
    return false;
  }
  uint64_t want = length.value_or(file.size - offset);
  contents.clear();
  contents.reserve(static_cast<size_t>(want));
  if (!file.read(offset, want, contents, error))
    return false;
  if (contents.size() != want) {
    error = "it ended after " + std::to_string(offset + contents.size()) +
            " bytes (it shrank, or it holds less than its size says)";
    return false;
  }
  return true;
}
