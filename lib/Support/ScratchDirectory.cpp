//===- ScratchDirectory.cpp - A process's temporary folder ---------------===//
//
// The lock file is created under a temporary name, locked, and only then
// renamed to its final name: a sweeper that finds the final name and gets
// the lock knows the owner is gone, never that it has not locked it yet.
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/ScratchDirectory.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;

static const char kPrefix[] = "kiln-scratch-";
static const char kLockName[] = ".kiln-scratch-lock";

std::string kiln::getTemporaryFolder() {
  const char *tmpdir = std::getenv("TMPDIR");
  if (tmpdir && *tmpdir)
    return tmpdir;
  return "/tmp";
}

/// Removes everything in the folder `fd` refers to (which it closes),
/// without following symbolic links.
static void removeContents(int fd) {
  DIR *dir = fdopendir(fd);
  if (!dir) {
    close(fd);
    return;
  }
  while (struct dirent *entry = readdir(dir)) {
    if (!std::strcmp(entry->d_name, ".") || !std::strcmp(entry->d_name, ".."))
      continue;
    struct stat info;
    if (fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0)
      continue;
    if (S_ISDIR(info.st_mode)) {
      int child = openat(dirfd(dir), entry->d_name,
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child >= 0)
        removeContents(child);
      unlinkat(dirfd(dir), entry->d_name, AT_REMOVEDIR);
    } else {
      unlinkat(dirfd(dir), entry->d_name, 0);
    }
  }
  closedir(dir);
}

static void removeTree(const std::string &path) {
  int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return;
  removeContents(fd);
  rmdir(path.c_str());
}

void kiln::sweepStaleScratchDirectories(const std::string &folder) {
  DIR *dir = opendir(folder.c_str());
  if (!dir)
    return;
  uid_t self = geteuid();
  while (struct dirent *entry = readdir(dir)) {
    if (std::strncmp(entry->d_name, kPrefix, sizeof(kPrefix) - 1))
      continue;
    struct stat info;
    if (fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(info.st_mode) || info.st_uid != self)
      continue;
    std::string path = folder + "/" + entry->d_name;
    int lock = open((path + "/" + kLockName).c_str(),
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (lock < 0)
      continue;
    if (flock(lock, LOCK_EX | LOCK_NB) == 0)
      removeTree(path);
    close(lock);
  }
  closedir(dir);
}

std::unique_ptr<ScratchDirectory> ScratchDirectory::create(std::string &error) {
  std::string folder = getTemporaryFolder();
  sweepStaleScratchDirectories(folder);
  std::string model = folder + "/" + kPrefix + "XXXXXX";
  if (!mkdtemp(&model[0])) {
    error = "cannot create a temporary folder '" + model +
            "': " + std::strerror(errno) + " (set TMPDIR to another folder)";
    return nullptr;
  }
  std::unique_ptr<ScratchDirectory> scratch(new ScratchDirectory());
  scratch->path = model;
  std::string pending = scratch->getFilePath(".kiln-scratch-lock-new");
  scratch->lockFD =
      open(pending.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (scratch->lockFD < 0 || flock(scratch->lockFD, LOCK_EX) != 0 ||
      rename(pending.c_str(), scratch->getFilePath(kLockName).c_str()) != 0) {
    error = "cannot lock the temporary folder '" + model +
            "': " + std::strerror(errno);
    return nullptr;
  }
  return scratch;
}

ScratchDirectory::~ScratchDirectory() {
  if (!path.empty())
    removeTree(path);
  if (lockFD >= 0)
    close(lockFD);
}
