//===- OutputFile.h - Write a path without touching anything else -*- C++
//-*-===//
//
// Every file Kiln's tools write goes through OutputFile, so they all treat
// the path the user named the same way:
//
//   - a symbolic link is followed to its target (a dangling one creates the
//     target), never replaced;
//   - a regular file, or a path that does not exist yet, is written to an
//     unnamed temporary file in the same folder and renamed into place only
//     when complete, so readers never see half a file and a failed,
//     interrupted or killed write leaves the old file as it was; the
//     replacement keeps the old file's permission bits;
//   - a character device (/dev/null, a terminal) or a FIFO is written
//     straight into, never replaced;
//   - a folder, a block device or a socket is refused, as is a path that
//     names one of the files the tool reads (`inputs`).
//
// The library has no LLVM in it, so the runtime's tools use it too.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_OUTPUTFILE_H
#define KILN_SUPPORT_OUTPUTFILE_H

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

class OutputFile {
public:
  /// Prepares to write `path`. Returns null and sets `error` ("cannot write
  /// 'PATH': WHY") when the path cannot or must not be written. `inputs` are
  /// the files the tool reads; an output that is one of them is refused.
  static std::unique_ptr<OutputFile>
  open(const std::string &path, std::string &error,
       const std::vector<std::string> &inputs = {});

  /// Discards what was written unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  /// The path as the caller gave it, for messages.
  const std::string &getPath() const { return path; }
  /// The descriptor to write to.
  int getFD() const { return fd; }
  /// True when writes go straight into a device or FIFO.
  bool isDirect() const { return direct; }

  /// Writes all of `data`; false (with `error` set) on failure.
  bool write(const void *data, size_t size, std::string &error);

  /// Makes the output visible: renames the temporary file over the target
  /// (or, for devices and FIFOs, just closes it).
  bool commit(std::string &error);

private:
  OutputFile() = default;
  bool fail(std::string &error, const std::string &why) const;

  std::string path;     // as given
  std::string target;   // symbolic links resolved
  std::string tempName; // a named temporary file, when O_TMPFILE was refused
  int fd = -1;
  int mode = 0; // permission bits of the result
  bool direct = false;
  bool committed = false;
};

/// True when `a` and `b` name the same existing file.
bool isSameFile(const std::string &a, const std::string &b);

/// Checks that `path` names a regular file (following symbolic links), so
/// reading it cannot hang on a FIFO or a device. Returns false with `error`
/// set to the reason ("it is a folder, not a regular file", ...).
bool checkReadableFile(const std::string &path, std::string &error);

} // namespace kiln

#endif // KILN_SUPPORT_OUTPUTFILE_H
