//===- DispatchSearch.h - One dispatch's coordinate descent -----*- C++ -*-===//
//
// kiln-tune search's work on one dispatch: a coordinate descent over its
// config space from the compiler's own config. Each step takes every
// value of one axis with the others fixed, measures the configs not known
// yet as one batch of the executor (the baseline among them every few
// candidates), and moves to the fastest; passes repeat until one improves
// nothing. While candidates and time are left, random points of the space
// are measured in batches, and a better one starts another descent. The
// search ends when the candidates run out, the deadline passes or the
// space is spent. The best config
// is then confirmed: timed three times against the baseline, alternating,
// and kept only when its median beats the baseline's by the margin and by
// more than twice the baseline's noise (the median absolute deviation of
// all the baseline's runs).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TUNE_DISPATCHSEARCH_H
#define KILN_TOOLS_KILN_TUNE_DISPATCHSEARCH_H

#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "kiln/Tuner/Evaluate.h"

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace kiln {

struct DispatchSearchLimits {
  size_t maxCandidates = 128;
  unsigned baselineEvery = 8;
  double margin = 0.03;
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  std::string database; // appended to, when set
};

class DispatchSearch {
public:
  /// `known`: configs the database measured on this workload, CPU and
  /// build, with their best time; they are not measured again.
  DispatchSearch(DispatchBench &bench, const ConfigSpace &space,
                 CandidateExecutor &executor,
                 const DispatchSearchLimits &limits,
                 const std::map<std::string, double> &known)
      : bench(bench), space(space), executor(executor), limits(limits),
        known(known) {}

  /// Runs the descent and the confirmation; false (said on stderr) when
  /// the executor fails or the database cannot be written.
  bool run();

  /// What it found: the baseline's times of the descent, the best config
  /// the descent saw, and, when that was confirmed, its median against the
  /// baseline's median in the confirmation.
  std::vector<double> baselineTimes;
  LoweringConfigAttr best;
  double bestMs = 0;
  bool confirmed = false;
  double confirmedMs = 0, confirmedBaselineMs = 0, noiseMs = 0;
  size_t measured = 0, reused = 0, failed = 0;
  bool outOfTime = false;

private:
  /// Measures the configs of `points` not seen yet, as one batch.
  bool evaluate(const std::vector<std::vector<size_t>> &points);
  /// Times the best config against the baseline, alternating.
  bool confirm();
  /// Measures `batch` (null: the baseline), records each measurement and
  /// keeps the baseline's times, and hands each to `use`; false (said on
  /// stderr) when the executor fails or a record cannot be written.
  bool measure(llvm::ArrayRef<LoweringConfigAttr> batch,
               llvm::function_ref<void(size_t, const Measurement &)> use);
  bool stopped();

  DispatchBench &bench;
  const ConfigSpace &space;
  CandidateExecutor &executor;
  const DispatchSearchLimits &limits;
  const std::map<std::string, double> &known;
  std::map<std::vector<size_t>, double> seen; // 0: failed or not a config
};

} // namespace kiln

#endif // KILN_TOOLS_KILN_TUNE_DISPATCHSEARCH_H
