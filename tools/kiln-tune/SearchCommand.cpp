//===- SearchCommand.cpp - kiln-tune search -------------------------------===//
//
//   kiln-tune search PROGRAM -o SPEC [--db=DB] [--coverage=F]
//                    [--max-dispatches=N] [--max-candidates=N] [--margin=F]
//                    [--compile-flag=F]... [--repetitions=N] [--timeout=S]
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
/// One dispatch's search.
class DispatchSearch {
public:
  DispatchSearch(DispatchBench &bench, const ConfigSpace &space,
                 const SearchOptions &options,
                 const std::map<std::string, double> &known)
      : bench(bench), space(space), options(options), known(known) {}

  /// Runs the descent; false when the database cannot be written.
  bool run();

  std::vector<double> baselineTimes;
  LoweringConfigAttr best;
  double bestMs = 0;
  size_t measured = 0, reused = 0, failed = 0;

private:
  /// The time of `point`'s config (measured, or known), 0 when it is not
  /// in the space or failed.
  double evaluate(const std::vector<size_t> &point, bool &ok);
  bool record(const Measurement &m);

  DispatchBench &bench;
  const ConfigSpace &space;
  const SearchOptions &options;
  const std::map<std::string, double> &known;
  std::map<std::vector<size_t>, double> seen;
};
} // namespace

bool DispatchSearch::record(const Measurement &m) {
  if (m.baseline && m.succeeded())
    baselineTimes.push_back(m.medianMs);
  if (options.database.empty())
    return true;
  if (llvm::Error error = TuningDatabase::append(options.database, m)) {
    fail(llvm::toString(std::move(error)));
    return false;
  }
  return true;
}

double DispatchSearch::evaluate(const std::vector<size_t> &point, bool &ok) {
  ok = true;
  if (auto it = seen.find(point); it != seen.end())
    return it->second;
  LoweringConfigAttr config = space.getConfig(point);
  double ms = 0;
  if (config) {
    std::string text;
    llvm::raw_string_ostream(text) << config;
    if (auto it = known.find(text); it != known.end()) {
      ms = it->second;
      ++reused;
    } else if (measured < options.maxCandidates) {
      if ((measured + 1) % options.baselineEvery == 0)
        ok = record(bench.measure(LoweringConfigAttr()));
      Measurement m = bench.measure(config);
      ++measured;
      if (m.succeeded())
        ms = m.medianMs;
      else
        ++failed;
      ok = ok && record(m);
    } else {
      return 0; // over budget: not seen, may be tried by nobody
    }
  }
  seen[point] = ms;
  if (ms > 0 && (bestMs == 0 || ms < bestMs)) {
    bestMs = ms;
    best = config;
  }
  return ms;
}

bool DispatchSearch::run() {
  if (!record(bench.measure(LoweringConfigAttr())))
    return false;
  std::vector<size_t> point = space.getBasePoint();
  double current = baselineTimes.empty() ? 0 : baselineTimes.front();
  bool ok = true;
  for (int pass = 0; pass < 4 && ok; ++pass) {
    bool improved = false;
    for (size_t axis = 0; axis < space.getAxes().size() && ok; ++axis) {
      std::vector<size_t> bestPoint = point;
      for (size_t value = 0; value < space.getAxes()[axis].values.size();
           ++value) {
        if (value == point[axis])
          continue;
        std::vector<size_t> next = point;
        next[axis] = value;
        double ms = evaluate(next, ok);
        if (!ok)
          break;
        if (ms > 0 && (current == 0 || ms < current)) {
          current = ms;
          bestPoint = next;
          improved = true;
        }
      }
      point = bestPoint;
    }
    if (!improved || measured >= options.maxCandidates)
      break;
  }
  return ok && record(bench.measure(LoweringConfigAttr()));
}

int kiln::runSearchCommand(mlir::MLIRContext &context,
                           const SearchOptions &options) {
  if (options.program.empty())
    return fail("search: give the program to tune");
  if (options.output.empty())
    return fail("search: give the spec to write with -o");
  if (!(options.coverage > 0 && options.coverage <= 1))
    return fail("search: --coverage must be above 0 and at most 1");
  if (!(options.margin >= 0 && options.margin < 1))
    return fail("search: --margin must be at least 0 and below 1");
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
  if (llvm::Error error =
          compileProgram(options.program, {"-o", baselineModule}, settings))
    return fail("search: " + llvm::toString(std::move(error)));
  llvm::Expected<ProgramProfile> profile =
      benchmarkProgram(baselineModule, /*profile=*/true, settings);
  if (!profile)
    return fail("search: timing the program: " +
                llvm::toString(profile.takeError()));
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
  std::vector<SpecEntry> entries;
  std::set<std::string> keys;
  double covered = 0;
  size_t tuned = 0;
  for (const ProfiledDispatch &profiled : profile->dispatches) {
    if (covered >= options.coverage || tuned >= options.maxDispatches)
      break;
    covered += profiled.share;
    ProgramDispatch *dispatch = byName.lookup(profiled.name);
    llvm::outs() << llvm::format("%5.1f%% ", 100 * profiled.share)
                 << profiled.name << ": ";
    if (!dispatch || !dispatch->root || !dispatch->standalone) {
      llvm::outs() << "not tunable ("
                   << (dispatch ? dispatch->whyNot : "not in the program")
                   << ")\n";
      continue;
    }
    llvm::outs() << dispatch->summary;
    if (!keys.insert(dispatch->key).second) {
      llvm::outs() << ": the same workload as one above\n";
      continue;
    }
    EvaluationSettings local = settings;
    std::optional<CPUTargetInfo> cpu =
        getDispatchTarget(*program->module, dispatch->executable, local);
    std::optional<ConfigSpace> space =
        cpu ? ConfigSpace::get(dispatch->root, *cpu) : std::nullopt;
    if (!space || space->getAxes().empty()) {
      llvm::outs() << ": no config space to search\n";
      continue;
    }
    ++tuned;
    std::map<std::string, double> known;
    for (const Measurement &m : history)
      if (m.key == dispatch->key && m.cpu == local.cpu &&
          m.buildId == KILN_BUILD_ID && m.succeeded() && !m.baseline) {
        auto [it, inserted] = known.try_emplace(m.config, m.medianMs);
        if (!inserted)
          it->second = std::min(it->second, m.medianMs);
      }
    llvm::Expected<DispatchBench> bench = DispatchBench::prepare(
        *dispatch, work->file(dispatch->executable), local);
    if (!bench) {
      llvm::outs() << ": " << llvm::toString(bench.takeError()) << "\n";
      continue;
    }
    DispatchSearch search(*bench, *space, options, known);
    if (!search.run())
      return 1;
    double baselineMs = getMedian(search.baselineTimes);
    double spread = getSpread(search.baselineTimes);
    double threshold = baselineMs * (1 - std::max(options.margin, spread));
    llvm::outs() << llvm::format(
        "\n    baseline %.4f ms (spread %.1f%%), best %.4f ms; %zu measured, "
        "%zu from the database, %zu failed\n",
        baselineMs, 100 * spread, search.bestMs, search.measured, search.reused,
        search.failed);
    if (!search.best || baselineMs <= 0 || search.bestMs >= threshold) {
      llvm::outs() << "    kept the compiler's config: nothing beat it by "
                      "more than the margin and the noise\n";
      continue;
    }
    std::string config;
    llvm::raw_string_ostream(config) << search.best;
    std::string comment;
    llvm::raw_string_ostream(comment)
        << llvm::format("%.4f ms against %.4f ms (%.2fx) on ", search.bestMs,
                        baselineMs, baselineMs / search.bestMs)
        << getMachineDescription() << ", " << getCurrentDate();
    llvm::outs() << llvm::format("    tuned: %.2fx ",
                                 baselineMs / search.bestMs)
                 << config << "\n";
    entries.push_back({dispatch->key, dispatch->summary, config, comment});
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
  if (entries.empty())
    return 0;
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
  return 0;
}
