//===- OutputFile.cpp - Write a path without touching anything else ------===//
//
// Regular outputs are written to an O_TMPFILE file, which has no name until
// commit() links it beside the target and renames it over the target: a
// compile killed even with SIGKILL leaves nothing behind. Where a file
// system refuses O_TMPFILE, a named temporary file holds an flock while it
// lives, and the next write of the same output removes such files whose
// writer died.
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ReadFile.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

using namespace kiln;

/// Marks the temporary files of an output: TARGET + kTempMarker + 6 chars.
static const char kTempMarker[] = ".kiln-tmp-";

static std::string describe(const std::string &path, const std::string &why) {
  return "cannot write '" + path + "': " + why;
}

static std::string folderOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  if (slash == 0)
    return "/";
  return path.substr(0, slash);
}

static std::string baseNameOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// The process's umask, read without changing it (umask() would race with
/// other threads creating files).
static mode_t currentUmask() {
  mode_t mask = 022;
  if (FILE *status = std::fopen("/proc/self/status", "re")) {
    char line[256];
    while (std::fgets(line, sizeof(line), status))
      if (std::strncmp(line, "Umask:", 6) == 0) {
        mask = static_cast<mode_t>(std::strtoul(line + 6, nullptr, 8));
        break;
      }
    std::fclose(status);
  }
  return mask;
}

static std::string randomSuffix() {
  static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 engine(std::random_device{}() ^
                                      static_cast<uint64_t>(getpid()));
  std::string suffix;
  for (int i = 0; i < 6; ++i)
    suffix.push_back(chars[engine() % (sizeof(chars) - 1)]);
  return suffix;
}

/// Resolves the symbolic links of `path`'s last component (the kernel
/// follows those of its folders), relative ones against the link's folder;
/// false with `error` set on a loop.
static bool resolveSymlinks(const std::string &path, std::string &resolved,
                            std::string &error) {
  resolved = path;
  for (int depth = 0; depth < 40; ++depth) {
    struct stat info;
    if (lstat(resolved.c_str(), &info) != 0 || !S_ISLNK(info.st_mode))
      return true;
    std::string target(static_cast<size_t>(info.st_size) + 256, '\0');
    ssize_t length = readlink(resolved.c_str(), &target[0], target.size());
    if (length < 0) {
      error = std::strerror(errno);
      return false;
    }
    target.resize(static_cast<size_t>(length));
    if (target.empty() || target[0] != '/')
      target = folderOf(resolved) + "/" + target;
    resolved = target;
  }
  error = "too many levels of symbolic links";
  return false;
}

bool kiln::isSameFile(const std::string &a, const std::string &b) {
  struct stat infoA, infoB;
  return stat(a.c_str(), &infoA) == 0 && stat(b.c_str(), &infoB) == 0 &&
         infoA.st_dev == infoB.st_dev && infoA.st_ino == infoB.st_ino;
}

bool kiln::checkReadableFile(const std::string &path, std::string &error) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    error = std::string("it is ") + describeFileKind(info.st_mode) +
            ", not a regular file";
    return false;
  }
  return true;
}

/// Removes `target`'s temporary files whose writers died: no process holds
/// their lock, and they are older than a writer's first instants (between
/// creating a file and locking it).
static void sweepStaleTemporaries(const std::string &target) {
  std::string folder = folderOf(target);
  std::string prefix = baseNameOf(target) + kTempMarker;
  DIR *dir = opendir(folder.c_str());
  if (!dir)
    return;
  time_t now = time(nullptr);
  while (struct dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name.size() != prefix.size() + 6 ||
        name.compare(0, prefix.size(), prefix))
      continue;
    int fd = openat(dirfd(dir), name.c_str(),
                    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
      continue;
    struct stat info;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
        now - info.st_mtime >= 2 && flock(fd, LOCK_EX | LOCK_NB) == 0)
      unlinkat(dirfd(dir), name.c_str(), 0);
    close(fd);
  }
  closedir(dir);
}

std::unique_ptr<OutputFile>
OutputFile::open(const std::string &path, std::string &error,
                 const std::vector<std::string> &inputs) {
  if (path.empty()) {
    error = "cannot write '': the output path is empty";
    return nullptr;
  }
  std::unique_ptr<OutputFile> file(new OutputFile());
  file->path = path;
  for (const std::string &input : inputs)
    if (!input.empty() && input != "-" && isSameFile(input, path)) {
      error = describe(path, "it is the input file '" + input +
                                 "'; name another output");
      return nullptr;
    }

  // The kernel follows the links of an existing file, /proc's magic links
  // (/dev/stdout) included; only a missing target needs them read by hand.
  struct stat info;
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) {
      // Written in place: replacing /dev/null or a FIFO would break every
      // other user of it. Opening a FIFO waits for its reader.
      file->direct = true;
      file->fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (file->fd < 0) {
        error = describe(path, std::strerror(errno));
        return nullptr;
      }
      return file;
    }
    if (!S_ISREG(info.st_mode)) {
      error = describe(path, std::string("it is ") +
                                 describeFileKind(info.st_mode) +
                                 "; Kiln writes regular files, character "
                                 "devices and FIFOs");
      return nullptr;
    }
    // Renaming over a file one may not write would replace it anyway.
    if (access(path.c_str(), W_OK) != 0) {
      error = describe(path, std::strerror(errno));
      return nullptr;
    }
    char *real = realpath(path.c_str(), nullptr);
    if (!real) {
      error = describe(path, std::strerror(errno));
      return nullptr;
    }
    file->target = real;
    std::free(real);
    file->mode = info.st_mode & 07777;
  } else if (errno != ENOENT) {
    error = describe(path, std::strerror(errno));
    return nullptr;
  } else {
    std::string why;
    if (!resolveSymlinks(path, file->target, why)) {
      error = describe(path, why);
      return nullptr;
    }
    file->mode = 0666 & ~currentUmask();
  }

  sweepStaleTemporaries(file->target);
  std::string folder = folderOf(file->target);
  file->fd = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (file->fd < 0 && errno != EOPNOTSUPP && errno != EISDIR &&
      errno != EINVAL) {
    error = describe(path, std::strerror(errno));
    return nullptr;
  }
  if (file->fd < 0) {
    for (int attempt = 0; attempt < 100 && file->fd < 0; ++attempt) {
      file->tempName = file->target + kTempMarker + randomSuffix();
      file->fd = ::open(file->tempName.c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
      if (file->fd < 0 && errno != EEXIST) {
        error =
            describe(path, "cannot create a temporary file '" + file->tempName +
                               "': " + std::strerror(errno));
        file->tempName.clear();
        return nullptr;
      }
    }
    if (file->fd < 0) {
      error = describe(path, "cannot find an unused temporary file name");
      file->tempName.clear();
      return nullptr;
    }
  }
  // The lock tells sweepStaleTemporaries that this writer is alive.
  flock(file->fd, LOCK_EX | LOCK_NB);
  return file;
}

OutputFile::~OutputFile() {
  if (fd >= 0)
    close(fd);
  if (!committed && !tempName.empty())
    unlink(tempName.c_str());
}

bool OutputFile::fail(std::string &error, const std::string &why) const {
  error = describe(path, why);
  return false;
}

bool OutputFile::write(const void *data, size_t size, std::string &error) {
  const char *bytes = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t written = ::write(fd, bytes, size);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return fail(error, std::strerror(errno));
    }
    bytes += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

bool OutputFile::commit(std::string &error) {
  if (committed)
    return true;
  if (direct) {
    committed = true;
    int result = close(fd);
    fd = -1;
    return result == 0 || fail(error, std::strerror(errno));
  }
  if (fchmod(fd, static_cast<mode_t>(mode)) != 0)
    return fail(error, std::strerror(errno));
  if (tempName.empty()) {
    // Give the unnamed file a name beside the target, then move it over.
    std::string procPath = "/proc/self/fd/" + std::to_string(fd);
    for (int attempt = 0; attempt < 100 && tempName.empty(); ++attempt) {
      std::string candidate = target + kTempMarker + randomSuffix();
      if (linkat(AT_FDCWD, procPath.c_str(), AT_FDCWD, candidate.c_str(),
                 AT_SYMLINK_FOLLOW) == 0)
        tempName = candidate;
      else if (errno != EEXIST)
        return fail(error, std::string("cannot name the temporary file: ") +
                               std::strerror(errno));
    }
    if (tempName.empty())
      return fail(error, "cannot find an unused temporary file name");
  }
  if (rename(tempName.c_str(), target.c_str()) != 0)
    return fail(error, std::strerror(errno));
  committed = true;
  int result = close(fd);
  fd = -1;
  return result == 0 || fail(error, std::strerror(errno));
}
