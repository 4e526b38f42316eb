//===- ProgressReporter.h - A compile's progress on a terminal --*- C++ -*-===//
//
// A long compile on a terminal shows where it is: from two seconds in, one
// line on standard error, rewritten a few times a second, with the phase and
// (in codegen and serialization) the executables done of all. The line is
// erased when the compile ends.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_INSTRUMENTATION_PROGRESSREPORTER_H
#define KILN_INSTRUMENTATION_PROGRESSREPORTER_H

#include "kiln/Instrumentation/CompileStatistics.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace kiln {

class ProgressReporter {
public:
  /// Starts reporting what `statistics` records, with `tool` in front.
  ProgressReporter(const CompileStatistics &statistics, std::string tool);
  /// Stops, and erases the line if one was shown.
  ~ProgressReporter();

  /// Whether standard error is a terminal (where progress goes).
  static bool isAvailable();

private:
  void run();

  const CompileStatistics &statistics;
  std::string tool;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread thread;
};

} // namespace kiln

#endif // KILN_INSTRUMENTATION_PROGRESSREPORTER_H
