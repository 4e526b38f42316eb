//===- kiln-tune.cpp - Tuning specs and the autotuner ---------------------===//
//
//   kiln-tune verify SPEC...              check each spec, say what it is
//   kiln-tune link SPEC... -o OUT         link specs, first = highest
//                                         precedence (--emit-bytecode)
//   kiln-tune embed -o OUT.inc NAME=SPEC... the build step: verify, and
//                                         write the specs as C++ arrays of
//                                         MLIR bytecode
//   kiln-tune dispatches IR [--extract=DIR]
//                                         list the dispatches of a program
//                                         compiled to a phase after
//                                         dispatch formation: root op,
//                                         workload key, config, config
//                                         space; write each as a stand-
//                                         alone program
//   kiln-tune db list|export|merge ...    tuning databases
//                                         (DatabaseCommand.cpp)
//   kiln-tune sweep / search PROGRAM ...  the autotuner (SweepCommand.cpp,
//                                         SearchCommand.cpp)
//   kiln-tune host                        this machine's CPU and Kiln
//                                         build (what the Dask bridge asks
//                                         its workers)
//
//===----------------------------------------------------------------------===//

#include "DatabaseCommand.h"
#include "SearchCommand.h"
#include "SweepCommand.h"
#include "kiln/Codegen/CPU/ConfigSpace.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Options/ToolHelp.h"
#include "kiln/Support/Version.h"
#include "kiln/Support/WriteFile.h"
#include "kiln/Tuner/Database.h"
#include "kiln/Tuner/ExtractDispatch.h"
#include "kiln/TuningSpecs/TransformOps.h"
#include "kiln/TuningSpecs/TuningSpecs.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace kiln;

namespace cl = llvm::cl;

static cl::OptionCategory toolCategory("kiln-tune options");
static cl::opt<std::string>
    command(cl::Positional, cl::Required,
            cl::desc("<verify|link|embed|dispatches|db|sweep|search|host>"));
static cl::list<std::string>
    inputs(cl::Positional, cl::desc("<spec>... (embed: NAME=SPEC...)"));
static cl::opt<std::string> output("o", cl::desc("Output file"),
                                   cl::value_desc("file"), cl::init("-"),
                                   cl::cat(toolCategory));
static cl::opt<bool> emitBytecode("emit-bytecode",
                                  cl::desc("link: write MLIR bytecode"),
                                  cl::cat(toolCategory));
static cl::opt<std::string>
    cpuName("cpu", cl::desc("db export: the CPU whose records to export"),
            cl::value_desc("name"), cl::cat(toolCategory));
static cl::opt<double>
    margin("margin",
           cl::desc("db export, search: only configs faster than the "
                    "baseline by more than this fraction (default 0.03)"),
           cl::init(0.03), cl::cat(toolCategory));
static cl::opt<std::string>
    dispatchName("dispatch", cl::desc("sweep: the dispatch to sweep"),
                 cl::value_desc("executable"), cl::cat(toolCategory));
static cl::opt<std::string> databasePath(
    "db", cl::desc("sweep, search: append every measurement to this database"),
    cl::value_desc("file"), cl::cat(toolCategory));
static cl::opt<unsigned>
    candidateLimit("limit", cl::desc("sweep: the most candidates (default 64)"),
                   cl::init(64), cl::cat(toolCategory));
static cl::list<std::string> compileFlags(
    "compile-flag",
    cl::desc("sweep, search: a kiln-compile flag for every compile "
             "(--kiln-target-cpu=..., ...)"),
    cl::value_desc("flag"), cl::cat(toolCategory));
static cl::list<std::string> inputShapes(
    "kiln-input-shape",
    cl::desc("sweep, search: the shape of a dynamic input of the program "
             "(NAME:1x3x640x640, as kiln-compile takes it), which the "
             "dispatches are tuned at"),
    cl::value_desc("input:shape"), cl::cat(toolCategory));
static cl::list<std::string> dimValues(
    "kiln-dim",
    cl::desc("sweep, search: the size of a symbolic dim of the program "
             "(SYMBOL=VALUE, as kiln-compile takes it)"),
    cl::value_desc("symbol=value"), cl::cat(toolCategory));
static cl::list<std::string> candidateFlags(
    "candidate-flag",
    cl::desc(
        "sweep, search: a kiln-compile flag for the candidates' compiles only "
        "(a tool chain under test)"),
    cl::value_desc("flag"), cl::cat(toolCategory));
static cl::opt<unsigned> repetitions(
    "repetitions",
    cl::desc("sweep, search: timed calls per measurement (default 20)"),
    cl::init(20), cl::cat(toolCategory));
static cl::opt<unsigned> benchmarkThreads(
    "bench-threads",
    cl::desc("sweep: threads running the dispatch (default: all)"), cl::init(0),
    cl::cat(toolCategory));
static cl::opt<unsigned>
    timeoutSeconds("timeout",
                   cl::desc("sweep: seconds a compile or a run may take "
                            "before it is killed (default 300)"),
                   cl::init(300), cl::cat(toolCategory));
static cl::opt<std::string>
    workDir("work-dir",
            cl::desc("sweep: keep the programs, modules and specs here "
                     "(default: a temporary folder, removed)"),
            cl::value_desc("folder"), cl::cat(toolCategory));
static cl::opt<double>
    coverage("coverage",
             cl::desc("search: tune dispatches until this share of the run "
                      "(default 0.9)"),
             cl::init(0.9), cl::cat(toolCategory));
static cl::opt<unsigned>
    maxDispatches("max-dispatches",
                  cl::desc("search: tune at most this many dispatches "
                           "(default 8)"),
                  cl::init(8), cl::cat(toolCategory));
static cl::opt<unsigned> maxCandidates(
    "max-candidates",
    cl::desc("search: measure at most this many configs per dispatch "
             "(default 128)"),
    cl::init(128), cl::cat(toolCategory));
static cl::opt<std::string> scheduler(
    "scheduler",
    cl::desc("sweep, search: run the candidates on a Dask cluster: its "
             "scheduler's address (tcp://host:8786) or scheduler file"),
    cl::value_desc("address"), cl::cat(toolCategory));
static cl::opt<unsigned>
    compileJobs("compile-jobs",
                cl::desc("sweep, search: compiles at once without --scheduler "
                         "(default: one per core)"),
                cl::init(0), cl::cat(toolCategory));
static cl::opt<double> timeBudget(
    "time-budget",
    cl::desc("search: seconds the whole search may take (default 900)"),
    cl::init(900), cl::cat(toolCategory));
static cl::opt<std::string>
    extractDir("extract",
               cl::desc("dispatches: write each dispatch that can stand "
                        "alone as DIR/<executable>.mlir"),
               cl::value_desc("folder"), cl::cat(toolCategory));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "kiln-tune: error: " << message << "\n";
  return 1;
}

/// Writes `contents` to the output atomically (nothing on failure).
static int writeOutput(llvm::function_ref<void(llvm::raw_ostream &)> write) {
  std::vector<std::string> read(inputs.begin(), inputs.end());
  llvm::Error error = kiln::writeFile(
      output,
      [&](llvm::raw_ostream &os) {
        write(os);
        return llvm::Error::success();
      },
      read);
  if (error)
    return fail(llvm::toString(std::move(error)));
  return 0;
}

static int verifySpecs(MLIRContext &context) {
  if (inputs.empty())
    return fail("verify: no spec given");
  bool failed = false;
  for (const std::string &path : inputs) {
    OwningOpRef<ModuleOp> spec = loadTuningSpec(&context, path);
    if (!spec) {
      failed = true;
      continue;
    }
    auto entry = *verifyTuningSpec(*spec);
    unsigned sequences =
        llvm::range_size(spec->getOps<transform::NamedSequenceOp>());
    llvm::outs() << path << ": tuning spec, format version "
                 << kTuningSpecVersion << ", entry point @"
                 << entry.getSymName() << ", " << sequences
                 << " named sequences\n";
  }
  return failed ? 1 : 0;
}

static int linkSpecs(MLIRContext &context) {
  if (inputs.empty())
    return fail("link: no spec given");
  std::vector<TuningSpecInput> specs;
  for (const std::string &path : inputs) {
    OwningOpRef<ModuleOp> spec = loadTuningSpec(&context, path);
    if (!spec)
      return 1;
    specs.push_back({path, std::move(spec)});
  }
  FailureOr<OwningOpRef<ModuleOp>> library =
      linkTuningSpecs(&context, std::move(specs));
  if (failed(library))
    return 1;
  return writeOutput([&](llvm::raw_ostream &os) {
    if (emitBytecode)
      (void)writeBytecodeToFile(**library, os);
    else
      (*library)->print(os);
  });
}

/// NAME=SPEC... into a C++ table of bytecode (DefaultSpecs.inc).
static int embedSpecs(MLIRContext &context) {
  if (inputs.empty())
    return fail("embed: no NAME=SPEC given");
  std::string table;
  llvm::raw_string_ostream os(table);
  os << "// Generated by kiln-tune embed from lib/TuningSpecs/Defaults: "
        "Kiln's default\n// tuning specs, verified, as MLIR bytecode. Do not "
        "edit.\n\n";
  std::string entries;
  std::vector<std::string> names;
  for (const std::string &input : inputs)
    names.push_back(llvm::StringRef(input).split('=').first.str());
  for (const std::string &input : inputs) {
    auto [name, path] = llvm::StringRef(input).split('=');
    if (name.empty() || path.empty())
      return fail("embed: '" + input + "' is not NAME=SPEC");
    OwningOpRef<ModuleOp> spec = loadTuningSpec(&context, path);
    if (!spec)
      return fail("embed: the default spec '" + path + "' is broken");
    // A spec that extends another is followed by it: its own entries
    // first, the other's for what they do not match.
    std::string extends;
    if (Attribute attr =
            (*spec)->getAttr(KilnDialect::getTuningSpecExtendsAttrName())) {
      auto other = dyn_cast<StringAttr>(attr);
      if (!other || !llvm::is_contained(names, other.getValue()) ||
          other.getValue() == name)
        return fail("embed: '" + path + "' extends " +
                    (other ? "'" + other.getValue().str() + "'"
                           : std::string("something that is not a name")) +
                    ", which is not another spec embedded with it");
      extends = other.getValue().str();
    }
    std::string bytecode;
    llvm::raw_string_ostream bytes(bytecode);
    if (failed(writeBytecodeToFile(*spec, bytes)))
      return fail("embed: cannot write '" + path + "' as bytecode");
    std::string symbol = "kSpec_" + name.str();
    for (char &c : symbol)
      if (!llvm::isAlnum(c))
        c = '_';
    os << "static const unsigned char " << symbol << "[] = {";
    for (auto [index, byte] : llvm::enumerate(bytecode)) {
      if (index % 16 == 0)
        os << "\n ";
      os << " 0x" << llvm::format_hex_no_prefix(static_cast<uint8_t>(byte), 2)
         << ",";
    }
    os << "\n};\n\n";
    entries += "    {\"" + name.str() + "\", \"" + path.str() + "\", " +
               symbol + ", sizeof(" + symbol + "), \"" + extends + "\"},\n";
  }
  os << "static const kiln::EmbeddedTuningSpec kEmbeddedTuningSpecs[] = {\n"
     << entries << "};\n";
  return writeOutput([&](llvm::raw_ostream &out) { out << table; });
}

/// How sweep and search compile and time candidates, from the flags.
static EvaluationSettings getEvaluationSettings() {
  EvaluationSettings settings;
  settings.compileFlags.assign(compileFlags.begin(), compileFlags.end());
  settings.candidateFlags.assign(candidateFlags.begin(), candidateFlags.end());
  for (const std::string &shape : inputShapes)
    settings.programFlags.push_back("--kiln-input-shape=" + shape);
  for (const std::string &dim : dimValues)
    settings.programFlags.push_back("--kiln-dim=" + dim);
  settings.repetitions = repetitions;
  settings.threads = benchmarkThreads;
  settings.compileTimeout = std::chrono::seconds(timeoutSeconds);
  settings.runTimeout = std::chrono::seconds(timeoutSeconds);
  return settings;
}

/// The CPU the first variant of `program`'s first executable targets.
static std::optional<CPUTargetInfo> getProgramCPU(ModuleOp program) {
  for (auto executable : program.getOps<ExecutableOp>())
    for (ExecutableVariantOp variant : executable.getVariantOps())
      return getCPUTargetInfo(variant.getTarget());
  return std::nullopt;
}

/// Prints the config space of `root` on `cpu`: its size and axes.
static void printSpace(llvm::raw_ostream &os, Operation *root,
                       const CPUTargetInfo &cpu) {
  std::optional<ConfigSpace> space = ConfigSpace::get(root, cpu);
  if (!space)
    return;
  os << "  space: " << space->getPointCount() << " points on "
     << space->getAxes().size() << " axes";
  for (const ConfigAxis &axis : space->getAxes()) {
    os << (&axis == &space->getAxes().front() ? " (" : ", ") << axis.name
       << " ";
    llvm::interleave(axis.values, os, "|");
    if (axis.unitAxis)
      os << " x " << space->getAxes()[*axis.unitAxis].name;
  }
  os << (space->getAxes().empty() ? "" : ")") << "\n";
}

/// dispatches IR [--extract=DIR]: what the tuner sees of a program.
static int listDispatches(MLIRContext &context) {
  if (inputs.size() != 1)
    return fail("dispatches: give one program (compiled with kiln-compile "
                "--compile-to=executable-configurations, or any phase from "
                "dispatch-formation on)");
  OwningOpRef<ModuleOp> program =
      parseSourceFile<ModuleOp>(inputs.front(), &context);
  if (!program)
    return 1;
  std::vector<ProgramDispatch> dispatches = collectDispatches(*program);
  if (dispatches.empty())
    return fail("dispatches: '" + inputs.front() +
                "' has no kiln.executable: compile it with kiln-compile "
                "--compile-to=executable-configurations first");
  if (!extractDir.empty()) {
    if (std::error_code error = llvm::sys::fs::create_directories(extractDir))
      return fail("cannot create '" + extractDir + "': " + error.message());
    if (!llvm::sys::fs::is_directory(extractDir))
      return fail("cannot create '" + extractDir + "': it is not a folder");
  }
  std::optional<CPUTargetInfo> cpu = getProgramCPU(*program);
  llvm::raw_ostream &os = llvm::outs();
  for (ProgramDispatch &dispatch : dispatches) {
    os << dispatch.executable << ":";
    if (!dispatch.root) {
      os << " not tunable: " << dispatch.whyNot << "\n";
      continue;
    }
    os << " " << dispatch.summary << "\n  key: " << dispatch.key << "\n";
    if (dispatch.config)
      os << "  config: " << dispatch.config << " ("
         << (dispatch.configuredBy.empty() ? "given" : dispatch.configuredBy)
         << ")\n";
    if (cpu)
      printSpace(os, dispatch.root, *cpu);
    if (!dispatch.standalone) {
      os << "  stand-alone: no, " << dispatch.whyNot << "\n";
      continue;
    }
    if (extractDir.empty())
      continue;
    SmallString<256> path(extractDir);
    llvm::sys::path::append(path, dispatch.executable + ".mlir");
    llvm::Error error = kiln::writeFile(std::string(path),
                                        [&](llvm::raw_ostream &file) {
                                          file << "// " << dispatch.executable
                                               << " of " << inputs.front()
                                               << ": " << dispatch.summary
                                               << ", " << dispatch.key << "\n";
                                          dispatch.standalone->print(file);
                                          return llvm::Error::success();
                                        },
                                        {inputs.front()});
    if (error)
      return fail(llvm::toString(std::move(error)));
    os << "  stand-alone: " << path << "\n";
  }
  return 0;
}

/// host: this machine as the Dask bridge asks its workers.
static int printHost() {
  if (!inputs.empty())
    return fail("host: takes no arguments");
  llvm::outs() << llvm::json::Value(
                      llvm::json::Object{{"cpu", llvm::sys::getHostCPUName()},
                                         {"build", KILN_BUILD_ID},
                                         {"machine", getMachineDescription()}})
               << "\n";
  return 0;
}

int main(int argc, char **argv) {
  kiln::ToolHelp help;
  llvm::InitLLVM init(argc, argv);
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << kiln::getVersionLine("kiln-tune") << "  on MLIR and LLVM "
       << LLVM_VERSION_STRING << "\n";
  });
  help.organize("kiln-tune", {&toolCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "kiln-tune: verify, link and embed Kiln tuning specs\n\n"
      "  kiln-tune verify SPEC...               check each spec, say what it "
      "is\n"
      "  kiln-tune link SPEC... -o OUT          link specs into one library, "
      "the\n"
      "                                         first with the highest "
      "precedence\n"
      "  kiln-tune embed -o OUT.inc NAME=SPEC...\n"
      "                                         verify each SPEC and write "
      "them all\n"
      "                                         as a C++ table of MLIR "
      "bytecode, each\n"
      "                                         under its NAME (a CPU such as "
      "znver3:\n"
      "                                         how Kiln builds its default "
      "specs in)\n"
      "  kiln-tune dispatches IR [--extract=DIR]\n"
      "                                         list a program's dispatches "
      "(compiled\n"
      "                                         to executable-configurations): "
      "root op,\n"
      "                                         workload key, config and "
      "config space;\n"
      "                                         with --extract, write each "
      "as a\n"
      "                                         stand-alone program\n"
      "  kiln-tune db list DB...                the best record of each "
      "workload in\n"
      "                                         tuning databases, against "
      "the baseline\n"
      "  kiln-tune db export DB... -o SPEC [--cpu=CPU] [--margin=F]\n"
      "                                         the workloads faster than the "
      "baseline\n"
      "                                         by more than F, as a tuning "
      "spec\n"
      "  kiln-tune db merge DB... -o OUT        every valid record of "
      "several databases\n"
      "  kiln-tune sweep PROGRAM --dispatch=NAME [--db=DB] [--limit=N]\n"
      "                                         compile, check and time "
      "every config\n"
      "                                         of one dispatch's space (up "
      "to N), the\n"
      "                                         baseline among them\n"
      "  kiln-tune search PROGRAM -o SPEC [--db=DB] [--max-candidates=N]\n"
      "                                         profile the program, tune "
      "the dispatches\n"
      "                                         with most of its time, write "
      "the configs\n"
      "                                         that beat the baseline as a "
      "spec\n"
      "                                         (--time-budget=S, "
      "--scheduler=ADDR)\n"
      "  kiln-tune host                         this machine's CPU and Kiln "
      "build, as JSON\n");
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<KilnDialect>();
  registerTransformExtension(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  if (command == "verify")
    return verifySpecs(context);
  if (command == "link")
    return linkSpecs(context);
  if (command == "embed")
    return embedSpecs(context);
  if (command == "dispatches")
    return listDispatches(context);
  if (command == "search") {
    if (inputs.size() != 1)
      return fail("search: give one program");
    if (repetitions == 0 || timeoutSeconds == 0 || maxCandidates == 0 ||
        maxDispatches == 0)
      return fail("search: --repetitions, --timeout, --max-candidates and "
                  "--max-dispatches must be at least 1");
    SearchOptions options;
    options.program = inputs.front();
    if (output.getNumOccurrences())
      options.output = output;
    options.database = databasePath;
    options.workDir = workDir;
    options.coverage = coverage;
    options.maxDispatches = maxDispatches;
    options.maxCandidates = maxCandidates;
    options.margin = margin;
    options.timeBudget = timeBudget;
    options.settings = getEvaluationSettings();
    options.executor = {scheduler, compileJobs};
    options.commandLine = "kiln-tune";
    for (int i = 1; i < argc; ++i)
      options.commandLine += std::string(" ") + argv[i];
    return runSearchCommand(context, options);
  }
  if (command == "sweep") {
    if (inputs.size() != 1)
      return fail("sweep: give one program");
    if (repetitions == 0 || timeoutSeconds == 0)
      return fail("sweep: --repetitions and --timeout must be at least 1");
    SweepOptions options;
    options.program = inputs.front();
    options.dispatch = dispatchName;
    options.database = databasePath;
    options.workDir = workDir;
    options.limit = candidateLimit;
    options.settings = getEvaluationSettings();
    options.executor = {scheduler, compileJobs};
    return runSweepCommand(context, options);
  }
  if (command == "host")
    return printHost();
  if (command == "db") {
    DatabaseCommandOptions options;
    if (output.getNumOccurrences())
      options.output = output;
    options.cpu = cpuName;
    options.margin = margin;
    return runDatabaseCommand(context, inputs, options);
  }
  return fail("unknown command '" + command +
              "' (verify, link, embed, dispatches, db, sweep, search or host)");
}
