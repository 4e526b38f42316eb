//===- Database.h - Every measurement the autotuner made --------*- C++ -*-===//
//
// A tuning database is a text file of one JSON object per line, each one
// measurement of one candidate config on one workload: what was measured
// (the workload key and summary, the target CPU and features, the config),
// how it went (compile and run status, times, the baseline's time in the
// same round), and where (Kiln's build id, the machine, the date). Searches
// append to it as they measure, several at once if need be (each line is
// one locked, appended write); readers skip lines that do not parse and
// say which. Databases of several machines concatenate into one.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNER_DATABASE_H
#define KILN_TUNER_DATABASE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// The format of a line, its "format" field.
constexpr int kTuningDatabaseFormat = 1;

struct Measurement {
  std::string key;      // workload key (kw1-...)
  std::string workload; // the root op: "linalg.matmul 64x64x128 f32"
  std::string cpu, features;
  std::string config;    // the #kiln.lowering_config, as text
  bool baseline = false; // the config the compiler picks without the tuner
  /// "ok", "failed" or "timeout"; the run's also "wrong" (numbers that
  /// differ from the baseline's) and "skipped" (after a failed compile).
  std::string compileStatus, runStatus;
  std::string error; // what failed, when something did
  double compileSeconds = 0;
  std::vector<double> timesMs; // each timed run's median call
  double medianMs = 0;         // of timesMs; 0 when none
  std::string buildId, machine, date;
  std::string worker; // "local", or the Dask worker that timed it

  bool succeeded() const {
    return compileStatus == "ok" && runStatus == "ok" && medianMs > 0;
  }
};

llvm::json::Value toJSON(const Measurement &measurement);
/// Parses one line's object; false (with `why`) when it is not one.
bool fromJSON(const llvm::json::Value &value, Measurement &measurement,
              std::string &why);

/// The best successful measurement of each (workload, CPU), and the
/// baseline's best, from all of `measurements`.
struct BestRecord {
  const Measurement *first = nullptr; // the first of the workload's
  const Measurement *best = nullptr;
  const Measurement *baseline = nullptr;
  size_t count = 0; // measurements of this workload on this CPU
};
std::vector<BestRecord>
findBestRecords(const std::vector<Measurement> &measurements);

class TuningDatabase {
public:
  /// Reads `path`: an error when it is not a regular file or cannot be
  /// read, or, with `mustExist`, is missing (else a missing file is an
  /// empty database: the first search's). Lines that do not parse are
  /// skipped and described in getWarnings(): "PATH:LINE: ...".
  static llvm::Expected<TuningDatabase> read(const std::string &path,
                                             bool mustExist = false);
  /// The database whose lines are `contents`, `name` in warnings (read()'s
  /// work once the file is read; the tuning_database fuzzer's entry).
  static TuningDatabase parse(llvm::StringRef contents, llvm::StringRef name);

  /// Appends `measurement` as one line: under an exclusive lock of the
  /// file, after a newline when the file ends without one (a writer killed
  /// mid-line), in one write, synced.
  static llvm::Error append(const std::string &path,
                            const Measurement &measurement);

  const std::vector<Measurement> &getMeasurements() const {
    return measurements;
  }
  const std::vector<std::string> &getWarnings() const { return warnings; }

private:
  std::vector<Measurement> measurements;
  std::vector<std::string> warnings;
};

/// Now, as ISO 8601 UTC ("2026-11-27T13:30:00Z").
std::string getCurrentDate();
/// This machine: host name and CPU model ("host (AMD EPYC ...)").
std::string getMachineDescription();

} // namespace kiln

#endif // KILN_TUNER_DATABASE_H
