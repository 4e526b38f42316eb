//===- ScratchDirectory.cpp - A process's temporary folder ---------------===//
//
// A folder is made under a pending name, its lock file created and locked
// in it, and only then renamed to its final name: a sweeper that finds the
// final name and gets the lock knows the owner is gone, never that it has
// not locked it yet. A compile killed before the rename leaves a pending
// folder, empty or with an unlocked lock, which the sweep removes too; a
// live compile whose pending folder is swept under it starts again.
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/ScratchDirectory.h"

#include <cerrno>
#include <cstdio> // renameat2
#include <cstdlib>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;

static const char kPrefix[] = "kiln-scratch-";
static const char kPendingPrefix[] = ".kiln-scratch-new-";
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
    bool pending = !std::strncmp(entry->d_name, kPendingPrefix,
                                 sizeof(kPendingPrefix) - 1);
    if (!pending && std::strncmp(entry->d_name, kPrefix, sizeof(kPrefix) - 1))
      continue;
    struct stat info;
    if (fstatat(dirfd(dir), entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 ||
        !S_ISDIR(info.st_mode) || info.st_uid != self)
      continue;
    std::string path = folder + "/" + entry->d_name;
    int lock = open((path + "/" + kLockName).c_str(),
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (lock < 0) {
      // A pending folder killed before its lock existed is empty (rmdir
      // removes nothing else). A final one without a lock is not Kiln's.
      if (pending && errno == ENOENT)
        rmdir(path.c_str());
      continue;
    }
    if (flock(lock, LOCK_EX | LOCK_NB) == 0)
      removeTree(path);
    close(lock);
  }
  closedir(dir);
}

/// One attempt at making a scratch folder in `folder`: returns its path,
/// its lock held through `lockFD`. Returns "" with `error` set on failure,
/// or with `error` empty when a concurrent sweep removed the pending folder
/// (or the final name is taken) and another attempt may succeed.
static std::string tryCreate(const std::string &folder, int &lockFD,
                             std::string &error) {
  std::string pending = folder + "/" + kPendingPrefix + "XXXXXX";
  if (!mkdtemp(&pending[0])) {
    error = "cannot create a temporary folder '" + pending +
            "': " + std::strerror(errno) + " (set TMPDIR to another folder)";
    return "";
  }
  std::string final =
      folder + "/" + kPrefix + pending.substr(pending.size() - 6);
  lockFD = open((pending + "/" + kLockName).c_str(),
                O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (lockFD >= 0 && flock(lockFD, LOCK_EX) == 0 &&
      renameat2(AT_FDCWD, pending.c_str(), AT_FDCWD, final.c_str(),
                RENAME_NOREPLACE) == 0)
    return final;
  int failure = errno;
  if (lockFD >= 0)
    close(lockFD);
  lockFD = -1;
  removeTree(pending);
  if (failure != ENOENT && failure != EEXIST)
    error = "cannot lock the temporary folder '" + pending +
            "': " + std::strerror(failure);
  return "";
}

std::unique_ptr<ScratchDirectory> ScratchDirectory::create(std::string &error) {
  std::string folder = getTemporaryFolder();
  sweepStaleScratchDirectories(folder);
  // Each retry follows a concurrent compile's sweep: a few are plenty.
  constexpr int kAttempts = 8;
  for (int attempt = 0; attempt < kAttempts && error.empty(); ++attempt) {
    int lockFD = -1;
    std::string path = tryCreate(folder, lockFD, error);
    if (path.empty())
      continue;
    std::unique_ptr<ScratchDirectory> scratch(new ScratchDirectory());
    scratch->path = path;
    scratch->lockFD = lockFD;
    return scratch;
  }
  if (error.empty())
    error = "cannot create a temporary folder in '" + folder +
            "': other compiles kept removing it";
  return nullptr;
}

ScratchDirectory::~ScratchDirectory() {
  if (!path.empty())
    removeTree(path);
  if (lockFD >= 0)
    close(lockFD);
}
