//===- CompileStatistics.h - Where one compile spent its time ---*- C++ -*-===//
//
// What a compile measures about itself: each phase's wall time, each
// executable's codegen and LLVM time, the object cache's hits and misses,
// and the steps after the passes (host code, linking). Passes find it
// through their context (SessionState.h) and record into it from any
// thread; the driver shows progress from it and writes it as JSON
// (--kiln-compile-stats).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_INSTRUMENTATION_COMPILESTATISTICS_H
#define KILN_INSTRUMENTATION_COMPILESTATISTICS_H

#include "mlir/Support/TypeID.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

namespace kiln {

class CompileStatistics {
public:
  using Clock = std::chrono::steady_clock;

  /// Phase `name` starts now, on a program of `executables` executables;
  /// the phase before it (if any) ends.
  void beginPhase(llvm::StringRef name, size_t executables);
  /// The current phase ends now.
  void endPhase();

  /// Codegen of executable `name` took `seconds` (negative: it had nothing
  /// to do, the object came from the cache).
  void recordCodegen(llvm::StringRef name, double seconds);
  /// LLVM made the object code of executable `name` in `seconds`
  /// (negative: it came from the cache).
  void recordObject(llvm::StringRef name, double seconds);
  /// The object cache had (or did not have) executable `name`'s object.
  void recordCacheLookup(llvm::StringRef name, bool hit);
  /// A step outside the passes (host code to object code, linking).
  void recordStep(llvm::StringRef name, double seconds);

  /// What progress shows: the phase, and during codegen and serialization
  /// the executables done of all.
  struct Progress {
    std::string phase;
    size_t done = 0;
    size_t total = 0;
    bool countsExecutables = false;
  };
  Progress getProgress() const;

  /// Everything measured, for --kiln-compile-stats.
  llvm::json::Value toJSON() const;

  /// A few lines for people: each phase's time, codegen's and LLVM's time
  /// summed over the executables, the object cache's hits and misses.
  void printSummary(llvm::raw_ostream &os) const;

private:
  struct Executable {
    double codegenSeconds = -1;
    double llvmSeconds = -1;
    int cacheHit = -1; // -1: no lookup
  };
  struct PhaseTime {
    std::string name;
    double seconds = 0;
  };

  mutable std::mutex mutex;
  Clock::time_point start = Clock::now();
  Clock::time_point phaseStart;
  std::string phase;
  size_t executableCount = 0;
  size_t doneInPhase = 0;
  std::vector<PhaseTime> phases;
  std::vector<PhaseTime> steps;
  llvm::StringMap<Executable> executables;
  std::vector<std::string> executableOrder;

  Executable &getExecutable(llvm::StringRef name);
};

/// Seconds since `start`.
inline double secondsSince(CompileStatistics::Clock::time_point start) {
  return std::chrono::duration<double>(CompileStatistics::Clock::now() - start)
      .count();
}

} // namespace kiln

MLIR_DECLARE_EXPLICIT_TYPE_ID(kiln::CompileStatistics)

#endif // KILN_INSTRUMENTATION_COMPILESTATISTICS_H
