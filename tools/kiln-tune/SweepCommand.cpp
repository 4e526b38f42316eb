//===- SweepCommand.cpp - kiln-tune sweep ---------------------------------===//
//
//   kiln-tune sweep PROGRAM --dispatch=NAME [--db=DB] [--limit=N]
//                   [--compile-flag=F]... [--candidate-flag=F]...
//                   [--repetitions=N] [--threads=N] [--timeout=S]
//                   [--work-dir=DIR]
//
// Compiles PROGRAM to executable-configurations, takes dispatch NAME,
// and measures the baseline and every config of its space up to the limit
// (each compiled, checked against the baseline's numbers and timed under
// timeouts), re-measuring the baseline every few candidates so that the
// table can say how much the machine drifted. Every measurement goes to
// the database when one is given.
//
//===----------------------------------------------------------------------===//

#include "SweepCommand.h"
#include "TuningProgram.h"
#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace kiln;

/// The most points a sweep enumerates.
static constexpr size_t kMaxPoints = 100000;

static int fail(const llvm::Twine &message) { return failCommand(message); }

int kiln::runSweepCommand(mlir::MLIRContext &context,
                          const SweepOptions &options) {
  if (options.program.empty())
    return fail("sweep: give the program to tune");
  if (options.dispatch.empty())
    return fail("sweep: give the dispatch to sweep with --dispatch (see "
                "kiln-tune dispatches)");
  // A database that cannot take records fails the sweep before any work.
  if (!options.database.empty() && llvm::sys::fs::exists(options.database) &&
      !llvm::sys::fs::is_regular_file(options.database))
    return fail("cannot append to the tuning database '" + options.database +
                "': it is not a regular file");
  llvm::Expected<TuningWork> work = TuningWork::create(options.workDir);
  if (!work)
    return fail(llvm::toString(work.takeError()));
  llvm::Expected<ConfiguredProgram> program = compileToConfigurations(
      context, options.program, options.settings, *work);
  if (!program)
    return fail("sweep: " + llvm::toString(program.takeError()));
  std::vector<ProgramDispatch> &dispatches = program->dispatches;
  auto it = llvm::find_if(dispatches, [&](const ProgramDispatch &d) {
    return d.executable == options.dispatch;
  });
  if (it == dispatches.end()) {
    std::string names;
    for (const ProgramDispatch &d : dispatches)
      names += " " + d.executable;
    return fail("sweep: the program has no dispatch '" + options.dispatch +
                "'; it has:" + names);
  }
  ProgramDispatch &dispatch = *it;
  if (!dispatch.root)
    return fail("sweep: " + dispatch.executable +
                " cannot be tuned: " + dispatch.whyNot);

  // The target, for the space and the records.
  EvaluationSettings settings = options.settings;
  std::optional<CPUTargetInfo> cpu =
      getDispatchTarget(*program->module, dispatch.executable, settings);
  if (!cpu)
    return fail("sweep: " + dispatch.executable + " has no target variant");
  std::optional<ConfigSpace> space = ConfigSpace::get(dispatch.root, *cpu);
  if (!space)
    return fail("sweep: the llvm-cpu backend has no config space for " +
                dispatch.summary);
  // Every point, then as many as the limit allows, evenly spread over
  // them (the base first).
  std::vector<LoweringConfigAttr> all = space->enumerate(kMaxPoints);
  std::vector<LoweringConfigAttr> candidates = {all.front()};
  size_t others = all.size() - 1;
  size_t take = std::min(options.limit, others);
  for (size_t i = 0; i < take; ++i)
    candidates.push_back(all[1 + i * others / take]);

  llvm::Expected<DispatchBench> bench =
      DispatchBench::prepare(dispatch, work->file("bench"), settings);
  if (!bench)
    return fail("sweep: " + llvm::toString(bench.takeError()));

  llvm::outs() << "sweep of " << dispatch.executable << ": " << dispatch.summary
               << " (" << dispatch.key << ") on " << settings.cpu << ", "
               << candidates.size() - 1 << " candidates of " << all.size() - 1
               << " in its space\n";
  std::vector<Measurement> measurements;
  std::vector<double> baselineTimes;
  auto record = [&](Measurement m) -> bool {
    bool recorded = recordMeasurement(options.database, m);
    if (m.baseline && m.succeeded())
      baselineTimes.push_back(m.medianMs);
    measurements.push_back(std::move(m));
    return recorded;
  };
  llvm::Expected<std::unique_ptr<CandidateExecutor>> executor =
      createExecutor(options.executor, settings.cpu, *work);
  if (!executor)
    return fail("sweep: " + llvm::toString(executor.takeError()));
  llvm::outs() << "candidates: " << (*executor)->describe() << "\n";
  // candidates[0] is the base config: the baseline itself, measured every
  // few candidates and at the end. One batch of baselines and candidates
  // per round, so that a baseline is timed among the candidates it rates.
  std::vector<LoweringConfigAttr> round;
  bool ok = true;
  auto measureRound = [&]() -> bool {
    llvm::Error error =
        bench->measure(round, **executor, [&](size_t, Measurement m) {
          ok = record(std::move(m)) && ok;
        });
    round.clear();
    if (error) {
      fail("sweep: " + llvm::toString(std::move(error)));
      return false;
    }
    return ok;
  };
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (i % options.baselineEvery == 0) {
      if (!round.empty() && !measureRound())
        return 1;
      round.push_back(LoweringConfigAttr());
    }
    if (i > 0)
      round.push_back(candidates[i]);
  }
  round.push_back(LoweringConfigAttr());
  if (!measureRound())
    return 1;

  double baseline = getMedian(baselineTimes);
  double spread = getSpread(baselineTimes);
  std::vector<const Measurement *> order;
  for (const Measurement &m : measurements)
    if (!m.baseline)
      order.push_back(&m);
  std::stable_sort(order.begin(), order.end(),
                   [](const Measurement *a, const Measurement *b) {
                     if (a->succeeded() != b->succeeded())
                       return a->succeeded();
                     return a->medianMs < b->medianMs;
                   });
  llvm::outs() << llvm::format("baseline: %.4f ms (median of %zu, spread "
                               "%.1f%%) %s\n",
                               baseline, baselineTimes.size(), 100 * spread,
                               bench->getBaselineConfig().c_str());
  for (const Measurement *m : order) {
    if (m->succeeded())
      llvm::outs() << llvm::format("%10.4f ms %6.2fx  ", m->medianMs,
                                   baseline / m->medianMs);
    else
      llvm::outs() << llvm::format(
          "%-20s  ", (m->compileStatus != "ok" ? "compile " + m->compileStatus
                                               : "run " + m->runStatus)
                         .c_str());
    llvm::outs() << m->config;
    if (!m->error.empty())
      llvm::outs() << "  (" << m->error << ")";
    llvm::outs() << "\n";
  }
  return 0;
}
