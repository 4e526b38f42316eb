//===- DatabaseCommand.cpp - kiln-tune db ---------------------------------===//
//
//   kiln-tune db list DB...                the best record of each workload
//                                          on each CPU, against the baseline
//   kiln-tune db export DB... -o SPEC [--cpu=CPU] [--margin=F]
//                                          those faster than the baseline by
//                                          more than F, as a spec
//   kiln-tune db merge DB... -o OUT        every valid line of them, once
//
// Lines that do not parse are skipped with a warning naming the file and
// line; the rest is used.
//
//===----------------------------------------------------------------------===//

#include "DatabaseCommand.h"
#include "kiln/Support/WriteFile.h"
#include "kiln/Tuner/Database.h"
#include "kiln/Tuner/SpecWriter.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace kiln;

static int fail(const llvm::Twine &message) {
  llvm::errs() << "kiln-tune: error: " << message << "\n";
  return 1;
}

/// Every measurement of `paths`, warnings printed; false when a file
/// cannot be read at all.
static bool readAll(const std::vector<std::string> &paths,
                    std::vector<Measurement> &measurements) {
  for (const std::string &path : paths) {
    // Named to be read: a missing one is an error, not an empty spec.
    llvm::Expected<TuningDatabase> database =
        TuningDatabase::read(path, /*mustExist=*/true);
    if (!database) {
      fail(llvm::toString(database.takeError()));
      return false;
    }
    for (const std::string &warning : database->getWarnings())
      llvm::errs() << "kiln-tune: warning: " << warning << "\n";
    llvm::append_range(measurements, database->getMeasurements());
  }
  return true;
}

/// "1.234 ms".
static std::string formatMs(double ms) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.4f ms", ms);
  return text;
}

static int listRecords(const std::vector<Measurement> &measurements) {
  for (const BestRecord &record : findBestRecords(measurements)) {
    const Measurement *first = record.first;
    llvm::outs() << first->workload << " on " << first->cpu << " ("
                 << first->key << "), " << record.count << " measurements\n";
    if (!record.best) {
      llvm::outs() << "  none succeeded\n";
      continue;
    }
    llvm::outs() << "  best: " << formatMs(record.best->medianMs) << " "
                 << record.best->config
                 << (record.best->baseline ? " (the baseline)" : "") << "\n";
    if (record.baseline && !record.best->baseline)
      llvm::outs() << "  baseline: " << formatMs(record.baseline->medianMs)
                   << ", best is "
                   << llvm::format("%.2fx", record.baseline->medianMs /
                                                record.best->medianMs)
                   << "\n";
  }
  return 0;
}

static int exportSpec(mlir::MLIRContext &context,
                      const std::vector<Measurement> &measurements,
                      const std::vector<std::string> &paths,
                      const DatabaseCommandOptions &options) {
  if (options.output.empty())
    return fail("db export: give the spec to write with -o");
  std::set<std::string> cpus;
  for (const Measurement &m : measurements)
    cpus.insert(m.cpu);
  std::string cpu = options.cpu;
  if (cpu.empty()) {
    if (cpus.size() > 1) {
      std::string list;
      for (const std::string &name : cpus)
        list += (list.empty() ? "" : ", ") + name;
      return fail("db export: the databases hold records of several CPUs (" +
                  list + "); choose one with --cpu");
    }
    if (!cpus.empty())
      cpu = *cpus.begin();
  }
  std::vector<SpecEntry> entries;
  for (const BestRecord &record : findBestRecords(measurements)) {
    const Measurement *best = record.best;
    if (!best || best->cpu != cpu || best->baseline)
      continue;
    double baselineMs = record.baseline ? record.baseline->medianMs : 0;
    if (baselineMs > 0 && best->medianMs >= baselineMs * (1 - options.margin))
      continue;
    std::string comment;
    llvm::raw_string_ostream os(comment);
    os << formatMs(best->medianMs);
    if (baselineMs > 0)
      os << " against " << formatMs(baselineMs) << " ("
         << llvm::format("%.2fx", baselineMs / best->medianMs) << ")";
    os << " on " << best->machine << ", " << best->date;
    entries.push_back({best->key, best->workload, best->config, comment});
  }
  std::vector<std::string> header = {
      "Written by kiln-tune db export from the records of CPU '" + cpu +
      "' in:"};
  for (const std::string &path : paths)
    header.push_back("  " + path);
  header.push_back(std::to_string(entries.size()) +
                   " workloads faster than the compiler's own config by more "
                   "than " +
                   std::to_string(static_cast<int>(options.margin * 100)) +
                   "%.");
  std::string spec = writeTuningSpec(entries, header);
  // What is written must load.
  if (!loadTuningSpec(&context, options.output, spec))
    return fail("db export: the spec written from the records does not "
                "verify (a record with a broken config?)");
  llvm::Error error = kiln::writeFile(
      options.output,
      [&](llvm::raw_ostream &os) {
        os << spec;
        return llvm::Error::success();
      },
      paths);
  if (error)
    return fail(llvm::toString(std::move(error)));
  llvm::outs() << options.output << ": " << entries.size()
               << " workloads for CPU '" << cpu << "'\n";
  return 0;
}

static int mergeDatabases(const std::vector<Measurement> &measurements,
                          const std::vector<std::string> &paths,
                          const DatabaseCommandOptions &options) {
  if (options.output.empty())
    return fail("db merge: give the database to write with -o");
  llvm::StringSet<> seen;
  size_t kept = 0;
  llvm::Error error = kiln::writeFile(
      options.output,
      [&](llvm::raw_ostream &os) {
        for (const Measurement &m : measurements) {
          std::string line;
          llvm::raw_string_ostream(line) << toJSON(m);
          if (!seen.insert(line).second)
            continue;
          os << line << "\n";
          ++kept;
        }
        return llvm::Error::success();
      },
      paths);
  if (error)
    return fail(llvm::toString(std::move(error)));
  llvm::outs() << options.output << ": " << kept << " measurements\n";
  return 0;
}

int kiln::runDatabaseCommand(mlir::MLIRContext &context,
                             const std::vector<std::string> &args,
                             const DatabaseCommandOptions &options) {
  if (args.empty())
    return fail("db: give a subcommand (list, export or merge) and databases");
  std::string subcommand = args.front();
  std::vector<std::string> paths(args.begin() + 1, args.end());
  if (subcommand != "list" && subcommand != "export" && subcommand != "merge")
    return fail("db: unknown subcommand '" + subcommand +
                "' (list, export or merge)");
  if (paths.empty())
    return fail("db " + subcommand + ": give at least one database");
  if (options.margin < 0 || options.margin >= 1)
    return fail("db: --margin must be at least 0 and below 1");
  std::vector<Measurement> measurements;
  if (!readAll(paths, measurements))
    return 1;
  if (subcommand == "list")
    return listRecords(measurements);
  if (subcommand == "export")
    return exportSpec(context, measurements, paths, options);
  return mergeDatabases(measurements, paths, options);
}
