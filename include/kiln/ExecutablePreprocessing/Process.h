//===- Process.h - Running external tools, bounded ---------------*- C++
//-*-===//
//
// What executable preprocessing needs of an external program: a command
// line split without a shell, the program found next to Kiln's tools or on
// PATH, its stdin fed and its stdout and stderr collected at once, a
// timeout after which it and everything it started are killed, and a cap
// on what it may print.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_EXECUTABLEPREPROCESSING_PROCESS_H
#define KILN_EXECUTABLEPREPROCESSING_PROCESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// Splits `command` into words as a POSIX shell would, without expanding
/// anything: blanks separate words; '...' keeps everything literally;
/// "..." keeps everything but \" \\ \$ \` (the backslash escapes them); a
/// backslash outside quotes escapes the next character. Fails on an
/// unterminated quote or a trailing backslash, and on an empty command.
llvm::Expected<std::vector<std::string>>
splitCommandLine(llvm::StringRef command);

/// The path of `program`: itself when it contains a '/', else the first of
/// the folder of the running Kiln tool and the folders of PATH that holds
/// an executable file of that name. The error says where it looked.
llvm::Expected<std::string> findProgram(llvm::StringRef program);

struct ProcessLimits {
  /// Killed (with all it started) after this long; zero: never.
  std::chrono::milliseconds timeout{0};
  /// Killed once its stdout holds more than this many bytes.
  size_t maxOutputBytes = 256u << 20;
  /// Only this much of stderr is kept (the rest is counted).
  size_t maxErrorBytes = 64u << 10;
};

struct ProcessResult {
  /// Set when the process ran and exited by itself.
  std::optional<int> exitCode;
  /// Set when a signal ended it (ours after a timeout or too much output,
  /// or another).
  std::optional<int> signal;
  bool timedOut = false;
  bool outputTooLarge = false;
  std::string output;
  std::string errorOutput;
  size_t errorBytesDropped = 0;

  bool succeeded() const { return exitCode && *exitCode == 0; }
  /// "exited with status 3", "was killed by signal 11 (Segmentation
  /// fault)", "timed out after 2 s and was killed", ...
  std::string describeFailure(const ProcessLimits &limits) const;
};

/// Runs `argv` (argv[0] a path) in a process group of its own, under a
/// supervisor that kills every process it started, in its group or not,
/// once it ends, with `input` on its stdin. Fails only when the process
/// cannot be started.
llvm::Expected<ProcessResult> runProcess(const std::vector<std::string> &argv,
                                         llvm::StringRef input,
                                         const ProcessLimits &limits);

} // namespace kiln

#endif // KILN_EXECUTABLEPREPROCESSING_PROCESS_H
