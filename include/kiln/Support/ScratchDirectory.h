//===- ScratchDirectory.h - A process's temporary folder ------*- C++ -*-===//
//
// A folder under $TMPDIR (or /tmp) for the temporary files of one job, such
// as the object code and linker output of a compile. It is removed with
// everything in it when the ScratchDirectory goes; while it lives it holds
// an flock on a lock file inside, so a later process can tell the folder of
// a killed job (lock free) from a live one, and sweepStaleScratchDirectories
// removes the former.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_SCRATCHDIRECTORY_H
#define KILN_SUPPORT_SCRATCHDIRECTORY_H

#include <memory>
#include <string>

namespace kiln {

class ScratchDirectory {
public:
  /// Creates a folder named kiln-scratch-XXXXXX, after sweeping stale ones.
  /// Returns null and sets `error` when it cannot.
  static std::unique_ptr<ScratchDirectory> create(std::string &error);

  /// Removes the folder and everything in it.
  ~ScratchDirectory();
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;

  const std::string &getPath() const { return path; }
  /// The path of `name` inside the folder.
  std::string getFilePath(const std::string &name) const {
    return path + "/" + name;
  }

private:
  ScratchDirectory() = default;
  std::string path;
  int lockFD = -1;
};

/// The folder temporary files go to: $TMPDIR when set, else /tmp.
std::string getTemporaryFolder();

/// Removes the scratch folders under `folder` whose owners are gone: their
/// lock file exists and no process holds its lock. Folders of other users
/// and anything not made by ScratchDirectory are left alone.
void sweepStaleScratchDirectories(const std::string &folder);

} // namespace kiln

#endif // KILN_SUPPORT_SCRATCHDIRECTORY_H
