//===- DispatchSearch.cpp - One dispatch's coordinate descent -------------===//

#include "DispatchSearch.h"
#include "TuningProgram.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace kiln;

bool DispatchSearch::measure(
    llvm::ArrayRef<LoweringConfigAttr> batch,
    llvm::function_ref<void(size_t, const Measurement &)> use) {
  bool recorded = true;
  llvm::Error error =
      bench.measure(batch, executor, [&](size_t i, Measurement m) {
        recorded = recordMeasurement(limits.database, m) && recorded;
        if (!batch[i] && m.succeeded())
          baselineTimes.push_back(m.medianMs);
        use(i, m);
      });
  if (error) {
    failCommand(llvm::toString(std::move(error)));
    return false;
  }
  return recorded;
}

bool DispatchSearch::stopped() {
  if (std::chrono::steady_clock::now() >= limits.deadline)
    outOfTime = true;
  return outOfTime || measured >= limits.maxCandidates;
}

bool DispatchSearch::evaluate(const std::vector<std::vector<size_t>> &points) {
  std::vector<LoweringConfigAttr> batch;
  std::vector<const std::vector<size_t> *> batchPoints; // null: baseline
  for (const std::vector<size_t> &point : points) {
    if (seen.count(point))
      continue;
    LoweringConfigAttr config = space.getConfig(point);
    if (!config) {
      seen[point] = 0;
      continue;
    }
    std::string text;
    llvm::raw_string_ostream(text) << config;
    if (auto it = known.find(text); it != known.end()) {
      seen[point] = it->second;
      ++reused;
      if (bestMs == 0 || it->second < bestMs) {
        bestMs = it->second;
        best = config;
      }
      continue;
    }
    size_t candidates = measured + llvm::count_if(batchPoints, [](auto *p) {
                          return p != nullptr;
                        });
    if (candidates >= limits.maxCandidates)
      continue; // over the budget: tried by nobody
    if ((candidates + 1) % limits.baselineEvery == 0) {
      batch.push_back(LoweringConfigAttr());
      batchPoints.push_back(nullptr);
    }
    batch.push_back(config);
    batchPoints.push_back(&point);
  }
  if (batch.empty())
    return true;
  return measure(batch, [&](size_t i, const Measurement &m) {
    if (!batchPoints[i])
      return;
    ++measured;
    double ms = m.succeeded() ? m.medianMs : 0;
    failed += !m.succeeded();
    seen[*batchPoints[i]] = ms;
    if (ms > 0 && (bestMs == 0 || ms < bestMs)) {
      bestMs = ms;
      best = batch[i];
    }
  });
}

bool DispatchSearch::confirm() {
  std::vector<LoweringConfigAttr> batch;
  for (int round = 0; round < 3; ++round) {
    batch.push_back(LoweringConfigAttr());
    batch.push_back(best);
  }
  std::vector<double> base, candidate;
  size_t before = baselineTimes.size();
  if (!measure(batch, [&](size_t i, const Measurement &m) {
        if (batch[i] && m.succeeded())
          candidate.push_back(m.medianMs);
      }))
    return false;
  base.assign(baselineTimes.begin() + before, baselineTimes.end());
  if (base.empty() || candidate.size() != 3)
    return true;
  confirmedMs = getMedian(candidate);
  confirmedBaselineMs = getMedian(base);
  // The noise: how far the baseline's runs, all of them, lie from their
  // median (the median absolute deviation, which one slow run does not
  // move).
  std::vector<double> deviations;
  double center = getMedian(baselineTimes);
  for (double ms : baselineTimes)
    deviations.push_back(std::abs(ms - center));
  noiseMs = getMedian(deviations);
  confirmed = confirmedMs < confirmedBaselineMs * (1 - limits.margin) &&
              confirmedBaselineMs - confirmedMs > 2 * noiseMs;
  return true;
}

bool DispatchSearch::run() {
  std::vector<size_t> point = space.getBasePoint();
  seen[point] = 0; // the baseline is measured as such
  if (!measure({LoweringConfigAttr()}, [](size_t, const Measurement &) {}))
    return false;
  double current = baselineTimes.empty() ? 0 : baselineTimes.front();
  std::mt19937_64 random(std::hash<std::string>{}(bench.getKey()));
  const std::vector<ConfigAxis> &axes = space.getAxes();
  while (!stopped()) {
    // Descend from `point` until a pass improves nothing.
    for (int pass = 0; pass < 4 && !stopped(); ++pass) {
      bool improved = false;
      for (size_t axis = 0; axis < axes.size() && !stopped(); ++axis) {
        std::vector<std::vector<size_t>> line;
        for (size_t value = 0; value < axes[axis].values.size(); ++value)
          if (value != point[axis]) {
            line.push_back(point);
            line.back()[axis] = value;
          }
        if (!evaluate(line))
          return false;
        for (const std::vector<size_t> &next : line) {
          auto it = seen.find(next);
          double ms = it == seen.end() ? 0 : it->second;
          if (ms > 0 && (current == 0 || ms < current)) {
            current = ms;
            point = next;
            improved = true;
          }
        }
      }
      if (!improved)
        break;
    }
    if (stopped())
      break;
    // With candidates and time left, points the descent did not reach,
    // drawn at random; a better one starts another descent.
    std::vector<std::vector<size_t>> batch;
    for (int tries = 0; tries < 1000 && batch.size() < limits.baselineEvery;
         ++tries) {
      std::vector<size_t> next(axes.size());
      for (size_t axis = 0; axis < axes.size(); ++axis)
        next[axis] = random() % axes[axis].values.size();
      if (!seen.count(next) && !llvm::is_contained(batch, next) &&
          space.getConfig(next))
        batch.push_back(std::move(next));
    }
    if (batch.empty())
      break; // the space is spent
    if (!evaluate(batch))
      return false;
    for (const std::vector<size_t> &next : batch)
      if (seen[next] > 0 && (current == 0 || seen[next] < current)) {
        current = seen[next];
        point = next;
      }
  }
  return best ? confirm() : true;
}
