//===- ProgressReporter.cpp - A compile's progress on a terminal ----------===//

#include "kiln/Instrumentation/ProgressReporter.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace kiln;

/// Quiet compiles stay quiet: nothing before this.
static constexpr std::chrono::milliseconds kFirstReport(2000);
static constexpr std::chrono::milliseconds kInterval(250);

ProgressReporter::ProgressReporter(const CompileStatistics &statistics,
                                   std::string tool)
    : statistics(statistics), tool(std::move(tool)) {
  thread = std::thread([this] { run(); });
}

ProgressReporter::~ProgressReporter() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  thread.join();
}

bool ProgressReporter::isAvailable() {
  return llvm::sys::Process::StandardErrIsDisplayed();
}

void ProgressReporter::run() {
  auto start = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex);
  if (wake.wait_until(lock, start + kFirstReport, [&] { return stopping; }))
    return;
  bool shown = false;
  do {
    CompileStatistics::Progress progress = statistics.getProgress();
    if (progress.phase.empty())
      continue;
    std::string line;
    llvm::raw_string_ostream os(line);
    os << tool << ": " << progress.phase;
    if (progress.countsExecutables && progress.total)
      os << ", " << progress.done << "/" << progress.total << " executables";
    os << " ("
       << llvm::format("%.0f", std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - start)
                                   .count())
       << " s)";
    // \r and "erase line": the next report, or the end, replaces it.
    llvm::errs() << "\r\x1b[K" << line;
    llvm::errs().flush();
    shown = true;
  } while (!wake.wait_for(lock, kInterval, [&] { return stopping; }));
  if (shown) {
    llvm::errs() << "\r\x1b[K";
    llvm::errs().flush();
  }
}
