//===- SearchCommand.cpp - kiln-tune search -------------------------------===//
//
//   kiln-tune search PROGRAM -o SPEC [--db=DB] [--coverage=F]
//                    [--max-dispatches=N] [--max-candidates=N] [--margin=F]
//                    [--compile-flag=F]... [--repetitions=N] [--timeout=S]
//                    [--kiln-input-shape=NAME:SHAPE]...
//                    [--kiln-dim=SYMBOL=N]...
//
// 1. Compiles PROGRAM, times it with kiln-benchmark --profile, and takes
//    the dispatches with the most time until --coverage of the run (at most
//    --max-dispatches), each workload once.
// 2. For each: coordinate descent over its config space from the
//    compiler's own config, one axis at a time, every value of the axis
//    with the others fixed, moving to the best, until a pass improves
//    nothing or --max-candidates were measured. Configs the database holds
//    a successful measurement of (same workload, CPU and Kiln build) are
//    not measured again. The baseline is measured every few candidates.
// 3. Keeps a dispatch's best config when it beats the baseline's median by
//    more than --margin and more than the baseline's spread, writes them as
//    a spec, and times the program with and without it, alternating.
//
//===----------------------------------------------------------------------===//

#include "SearchCommand.h"
#include "DispatchSearch.h"
#include "TuningProgram.h"
#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "kiln/ExecutablePreprocessing/Process.h"
#include "kiln/Support/Version.h"
#include "kiln/Support/WriteFile.h"
#include "kiln/Tuner/SpecWriter.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace kiln;

static int fail(const llvm::Twine &message) { return failCommand(message); }

namespace {
/// A dispatch of the profile: its name and share of the run.
struct ProfiledDispatch {
  std::string name;
  double share = 0;
};

/// What kiln-benchmark --json --profile said.
struct ProgramProfile {
  double medianMs = 0;
  std::vector<ProfiledDispatch> dispatches; // most time first
};
} // namespace

/// Times `module` with kiln-benchmark (--profile when `profile`).
static llvm::Expected<ProgramProfile>
benchmarkProgram(const std::string &module, bool profile,
                 const EvaluationSettings &settings) {
  llvm::Expected<std::string> tool = findProgram("kiln-benchmark");
  if (!tool)
    return tool.takeError();
  std::vector<std::string> argv = {*tool, module, "--json",
                                   "--repetitions=" +
                                       std::to_string(settings.repetitions)};
  if (profile)
    argv.push_back("--profile");
  if (settings.threads > 0)
    argv.push_back("--threads=" + std::to_string(settings.threads));
  ToolRun run = runTool(argv, settings.runTimeout);
  if (!run.ok)
    return llvm::createStringError(run.failure);
  std::optional<llvm::json::Object> json = parseLastJsonObject(run.output);
  if (!json || !json->getNumber("median_ms"))
    return llvm::createStringError("kiln-benchmark printed no median");
  ProgramProfile result;
  result.medianMs = *json->getNumber("median_ms");
  if (const llvm::json::Array *rows = json->getArray("dispatches"))
    for (const llvm::json::Value &row : *rows)
      if (const llvm::json::Object *dispatch = row.getAsObject())
        result.dispatches.push_back(
            {dispatch->getString("dispatch").value_or("").str(),
             dispatch->getNumber("share").value_or(0)});
  return result;
}

namespace {
/// A dispatch chosen for tuning.
struct Chosen {
  ProfiledDispatch profiled;
  ProgramDispatch *dispatch;
  EvaluationSettings settings; // with its CPU
  ConfigSpace space;
};
} // namespace

using Clock = std::chrono::steady_clock;

static double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

int kiln::runSearchCommand(mlir::MLIRContext &context,
                           const SearchOptions &options) {
  Clock::time_point start = Clock::now();
  if (options.program.empty())
    return fail("search: give the program to tune");
  if (options.output.empty())
    return fail("search: give the spec to write with -o");
  if (!(options.coverage > 0 && options.coverage <= 1))
    return fail("search: --coverage must be above 0 and at most 1");
  if (!(options.margin >= 0 && options.margin < 1))
    return fail("search: --margin must be at least 0 and below 1");
  // Bounded: a budget of inf or 1e300 seconds overflowed into a deadline
  // in the past ("no time left") and an empty spec.
  constexpr double kMaxBudgetSeconds = 30 * 24 * 3600.0;
  if (!(options.timeBudget > 0 && options.timeBudget <= kMaxBudgetSeconds))
    return fail("search: --time-budget must be above 0 seconds and at most " +
                llvm::Twine(static_cast<int64_t>(kMaxBudgetSeconds)) +
                " (30 days)");
  if (!options.database.empty() && llvm::sys::fs::exists(options.database) &&
      !llvm::sys::fs::is_regular_file(options.database))
    return fail("cannot append to the tuning database '" + options.database +
                "': it is not a regular file");
  // The spec is checked like any output before the work.
  {
    std::string openError;
    auto probe = OutputFile::open(options.output, openError, {options.program});
    if (!probe)
      return fail(openError);
  }
  llvm::Expected<TuningWork> work = TuningWork::create(options.workDir);
  if (!work)
    return fail(llvm::toString(work.takeError()));
  const EvaluationSettings &settings = options.settings;

  // 1. Where the time goes.
  std::string baselineModule = work->file("program.so");
  Clock::time_point compileStart = Clock::now();
  if (llvm::Error error =
          compileProgram(options.program, {"-o", baselineModule}, settings))
    return fail("search: " + llvm::toString(std::move(error)));
  double compileSeconds = secondsSince(compileStart);
  Clock::time_point benchmarkStart = Clock::now();
  llvm::Expected<ProgramProfile> profile =
      benchmarkProgram(baselineModule, /*profile=*/true, settings);
  if (!profile) {
    std::string message = llvm::toString(profile.takeError());
    // kiln-benchmark cannot make up the sizes of a dynamic input.
    if (llvm::StringRef(message).contains("dynamic dims"))
      message += " (kiln-tune times a program with dynamic inputs at the "
                 "sizes --kiln-input-shape or --kiln-dim give it)";
    return fail("search: timing the program: " + message);
  }
  double benchmarkSeconds = secondsSince(benchmarkStart);
  llvm::Expected<ConfiguredProgram> program =
      compileToConfigurations(context, options.program, settings, *work);
  if (!program)
    return fail("search: " + llvm::toString(program.takeError()));
  llvm::StringMap<ProgramDispatch *> byName;
  for (ProgramDispatch &dispatch : program->dispatches)
    byName[dispatch.executable] = &dispatch;

  // What the database knows, by workload and CPU: config -> best time.
  std::vector<Measurement> history;
  if (!options.database.empty()) {
    llvm::Expected<TuningDatabase> database =
        TuningDatabase::read(options.database);
    if (!database)
      return fail(llvm::toString(database.takeError()));
    for (const std::string &warning : database->getWarnings())
      llvm::errs() << "kiln-tune: warning: " << warning << "\n";
    history = database->getMeasurements();
  }

  llvm::outs() << llvm::format("program: %.4f ms per call\n",
                               profile->medianMs);
  // 2. The dispatches to tune: the most time first, each workload once.
  std::vector<Chosen> chosen;
  std::map<std::string, std::string> keys; // workload -> first dispatch
  double covered = 0, chosenShare = 0;
  for (const ProfiledDispatch &profiled : profile->dispatches) {
    if (covered >= options.coverage || chosen.size() >= options.maxDispatches)
      break;
    covered += profiled.share;
    ProgramDispatch *dispatch = byName.lookup(profiled.name);
    std::string why;
    std::optional<CPUTargetInfo> cpu;
    EvaluationSettings local = settings;
    if (!dispatch || !dispatch->root || !dispatch->standalone)
      why = "not tunable (" +
            (dispatch ? dispatch->whyNot : "not in the program") + ")";
    else if (auto [it, added] =
                 keys.try_emplace(dispatch->key, dispatch->executable);
             !added)
      why = dispatch->summary + ": the same workload as " + it->second;
    else if (!(cpu = getDispatchTarget(*program->module, dispatch->executable,
                                       local)))
      why = dispatch->summary + ": no target variant";
    std::optional<ConfigSpace> space =
        why.empty() ? ConfigSpace::get(dispatch->root, *cpu) : std::nullopt;
    if (why.empty() && (!space || space->getAxes().empty()))
      why = dispatch->summary + ": no config space to search";
    if (!why.empty()) {
      llvm::outs() << llvm::format("%5.1f%% ", 100 * profiled.share)
                   << profiled.name << ": " << why << "\n";
      continue;
    }
    chosen.push_back({profiled, dispatch, local, std::move(*space)});
    chosenShare += profiled.share;
  }

  // The budget: what is left once the program is compiled and timed
  // again at the end, shared by the dispatches as their time is.
  Clock::time_point end =
      start + std::chrono::milliseconds(
                  static_cast<int64_t>(options.timeBudget * 1000));
  Clock::time_point tuningEnd =
      end - std::chrono::milliseconds(static_cast<int64_t>(
                (compileSeconds + 6 * benchmarkSeconds + 5) * 1000));
  std::map<std::string, std::unique_ptr<CandidateExecutor>> executors;
  std::vector<SpecEntry> entries;
  for (Chosen &c : chosen) {
    ProgramDispatch &dispatch = *c.dispatch;
    llvm::outs() << llvm::format("%5.1f%% ", 100 * c.profiled.share)
                 << c.profiled.name << ": " << dispatch.summary;
    Clock::time_point now = Clock::now();
    DispatchSearchLimits limits;
    limits.maxCandidates = options.maxCandidates;
    limits.baselineEvery = options.baselineEvery;
    limits.margin = options.margin;
    limits.database = options.database;
    limits.deadline =
        now + std::chrono::duration_cast<Clock::duration>(
                  (tuningEnd - now) * (c.profiled.share / chosenShare));
    chosenShare -= c.profiled.share;
    if (tuningEnd <= now) {
      llvm::outs() << ": no time left in the budget\n";
      continue;
    }
    std::unique_ptr<CandidateExecutor> &executor = executors[c.settings.cpu];
    if (!executor) {
      llvm::Expected<std::unique_ptr<CandidateExecutor>> created =
          createExecutor(options.executor, c.settings.cpu, *work);
      if (!created)
        return fail("search: " + llvm::toString(created.takeError()));
      executor = std::move(*created);
      llvm::outs() << "\n    candidates: " << executor->describe();
    }
    std::map<std::string, double> known;
    for (const Measurement &m : history)
      if (m.key == dispatch.key && m.cpu == c.settings.cpu &&
          m.buildId == KILN_BUILD_ID && m.succeeded() && !m.baseline) {
        auto [it, inserted] = known.try_emplace(m.config, m.medianMs);
        if (!inserted)
          it->second = std::min(it->second, m.medianMs);
      }
    llvm::Expected<DispatchBench> bench = DispatchBench::prepare(
        dispatch, work->file(dispatch.executable), c.settings);
    if (!bench) {
      llvm::outs() << ": " << llvm::toString(bench.takeError()) << "\n";
      continue;
    }
    DispatchSearch search(*bench, c.space, *executor, limits, known);
    if (!search.run())
      return 1;
    double baselineMs = getMedian(search.baselineTimes);
    llvm::outs() << llvm::format(
        "\n    baseline %.4f ms (spread %.1f%%), best %.4f ms; %zu measured, "
        "%zu from the database, %zu failed%s\n",
        baselineMs, 100 * getSpread(search.baselineTimes), search.bestMs,
        search.measured, search.reused, search.failed,
        search.outOfTime ? "; stopped at its share of the time budget" : "");
    if (!search.best || search.confirmedMs <= 0) {
      llvm::outs() << "    kept the compiler's config: no candidate ran\n";
      continue;
    }
    double speedup = search.confirmedBaselineMs / search.confirmedMs;
    llvm::outs() << llvm::format("    confirmation, 3 runs each "
                                 "alternating: %.4f ms against %.4f ms "
                                 "(%.2fx); the baseline's noise %.4f ms\n",
                                 search.confirmedMs, search.confirmedBaselineMs,
                                 speedup, search.noiseMs);
    if (!search.confirmed) {
      llvm::outs() << "    kept the compiler's config: the best did not beat "
                      "it by more than the margin and the noise\n";
      continue;
    }
    std::string config;
    llvm::raw_string_ostream(config) << search.best;
    std::string comment;
    llvm::raw_string_ostream(comment)
        << llvm::format("%.4f ms against %.4f ms (%.2fx) on ",
                        search.confirmedMs, search.confirmedBaselineMs, speedup)
        << getMachineDescription() << ", " << getCurrentDate() << ", by "
        << options.commandLine;
    llvm::outs() << llvm::format("    tuned: %.2fx ", speedup) << config
                 << "\n";
    entries.push_back({dispatch.key, dispatch.summary, config, comment});
  }

  // 3. The spec, and the program with it.
  std::vector<std::string> header = {
      "Written by kiln-tune search for '" + options.program + "' (" +
          std::to_string(entries.size()) + " workloads).",
      "Kiln build " KILN_BUILD_ID "."};
  std::string spec = writeTuningSpec(entries, header);
  if (!loadTuningSpec(&context, options.output, spec))
    return fail("search: the spec written does not verify");
  if (llvm::Error error = kiln::writeFile(options.output,
                                          [&](llvm::raw_ostream &os) {
                                            os << spec;
                                            return llvm::Error::success();
                                          },
                                          {options.program}))
    return fail(llvm::toString(std::move(error)));
  llvm::outs() << options.output << ": " << entries.size() << " workloads\n";
  if (!entries.empty()) {
    std::string tunedModule = work->file("program.tuned.so");
    if (llvm::Error error = compileProgram(
            options.program,
            {"-o", tunedModule, "--kiln-tuning-spec=" + options.output},
            settings))
      return fail("search: " + llvm::toString(std::move(error)));
    std::vector<double> before, after;
    for (int round = 0; round < 3; ++round)
      for (auto [module, times] : {std::pair{&baselineModule, &before},
                                   std::pair{&tunedModule, &after}}) {
        llvm::Expected<ProgramProfile> timed =
            benchmarkProgram(*module, /*profile=*/false, settings);
        if (!timed)
          return fail("search: timing the program: " +
                      llvm::toString(timed.takeError()));
        times->push_back(timed->medianMs);
      }
    double beforeMs = getMedian(before), afterMs = getMedian(after);
    llvm::outs() << llvm::format("program: %.4f ms -> %.4f ms (%.2fx), "
                                 "medians of 3 alternating runs\n",
                                 beforeMs, afterMs, beforeMs / afterMs);
  }
  llvm::outs() << llvm::format("search took %.0f s of a %.0f s budget\n",
                               secondsSince(start), options.timeBudget);
  return 0;
}
