//===- SpecWriter.h - Tuning specs of tuned workloads -----------*- C++ -*-===//
//
// The spec the autotuner writes: per workload, a matcher (the op's name,
// then its workload key) and an action setting the config it chose, with
// comments saying what was measured where.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNER_SPECWRITER_H
#define KILN_TUNER_SPECWRITER_H

#include <string>
#include <vector>

namespace kiln {

struct SpecEntry {
  std::string key;      // workload key
  std::string workload; // "linalg.matmul 64x64x128 f32": the first word is
                        // the op's name
  std::string config;   // #kiln.lowering_config<...>
  std::string comment;  // one line: what it measured
};

/// The spec's text: `header` as comment lines, then one matcher and one
/// action per entry, and the entry point.
std::string writeTuningSpec(const std::vector<SpecEntry> &entries,
                            const std::vector<std::string> &header);

} // namespace kiln

#endif // KILN_TUNER_SPECWRITER_H
