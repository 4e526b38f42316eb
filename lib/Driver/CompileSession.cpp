//===- CompileSession.cpp - Everything one user of the compiler set -------===//

#include "kiln/Driver/CompileSession.h"
#include "kiln/Cache/FileCache.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "kiln/Driver/InitAll.h"
#include "kiln/Files/FilesRead.h"
#include "kiln/Instrumentation/CompileCancellation.h"
#include "kiln/Instrumentation/CompileStatistics.h"
#include "kiln/Instrumentation/ProgressReporter.h"
#include "kiln/Support/OutputFile.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ThreadPool.h"

#include <pthread.h>

#include <algorithm>
#include <optional>
#include <vector>

using namespace kiln;

CompileSession::~CompileSession() = default;

std::unique_ptr<CompileSession>
CompileSession::forTool(llvm::ArrayRef<std::string> arguments) {
  std::unique_ptr<CompileSession> session(new CompileSession());
  session->isTool = true;
  session->options = getPipelineOptionsFromFlags();
  session->flags.assign(arguments.begin(), arguments.end());
  return session;
}

std::unique_ptr<CompileSession> CompileSession::create() {
  std::unique_ptr<CompileSession> session(new CompileSession());
  session->binder = std::make_unique<OptionsBinder>(OptionsBinder::local());
  session->options.bindOptions(*session->binder);
  session->options.tuning.searchPath = getTuningSpecSearchPath();
  session->instances = std::make_unique<PluginInstances>();
  return session;
}

/// Flags that act on the whole process, which took them when it started.
static bool isProcessFlag(llvm::StringRef name) {
  return name == "kiln-load-plugin" || name == "load-pass-plugin" ||
         name == "load-dialect-plugin";
}

llvm::Error CompileSession::setFlags(llvm::ArrayRef<std::string> flags) {
  if (isTool)
    return llvm::createStringError(
        "a tool's session takes its flags from the command line");
  llvm::append_range(this->flags, flags);
  std::vector<std::string> pipelineFlags;
  for (size_t i = 0; i < flags.size(); ++i) {
    llvm::StringRef flag = flags[i];
    llvm::StringRef body = flag;
    if (!body.consume_front("--") && !body.consume_front("-")) {
      pipelineFlags.push_back(flag.str());
      continue;
    }
    auto [name, value] = body.split('=');
    bool hasValue = body.contains('=');
    if (name == "kiln-plugin" || isProcessFlag(name)) {
      if (!hasValue) {
        if (i + 1 == flags.size())
          return llvm::createStringError("--" + name + " needs a value");
        value = flags[++i];
      }
      if (name == "kiln-plugin") {
        llvm::SmallVector<llvm::StringRef> specs;
        value.split(specs, ',', -1, /*KeepEmpty=*/false);
        for (llvm::StringRef spec : specs)
          requestPlugin(spec, "--kiln-plugin");
      }
      continue;
    }
    if (instances->hasFlag(name)) {
      std::optional<llvm::StringRef> given;
      if (hasValue)
        given = value;
      else if (instances->takesValue(name)) {
        if (i + 1 == flags.size())
          return llvm::createStringError("--" + name + " needs a value");
        given = flags[++i];
      }
      if (llvm::Error error = instances->setFlag(name, given))
        return error;
      continue;
    }
    if (name.starts_with("mlir-"))
      return llvm::createStringError(
          "--" + name +
          " is one of MLIR's flags, which act on the whole process: give it "
          "when the compiler is initialized, not to a session");
    // Kiln's own, with the value that may follow it (the binder reads
    // both forms).
    pipelineFlags.push_back(flag.str());
  }
  if (llvm::Error error = binder->parseArguments(pipelineFlags))
    return llvm::createStringError(
        llvm::toString(std::move(error)) +
        " (kiln-compile --help lists Kiln's flags and the plugins')");
  return llvm::Error::success();
}

void CompileSession::requestPlugin(llvm::StringRef spec,
                                   llvm::StringRef origin) {
  requests.emplace_back(spec.trim().str(), origin.str());
}

std::unique_ptr<PluginSession> CompileSession::makePluginSession() const {
  auto plugins =
      std::make_unique<PluginSession>(PluginManager::get(), instances.get());
  if (isTool)
    plugins->requestFromFlags();
  for (const auto &[spec, origin] : requests)
    plugins->request(spec, origin);
  return plugins;
}

/// How many of `wanted` threads this process can run at once now. Under a
/// limit on processes or threads (RLIMIT_NPROC, a cgroup's pids.max) LLVM's
/// thread pool aborts the process when it cannot start one, taking a host
/// (Python, an embedding application) with it; a compile on fewer threads
/// is better.
static unsigned countStartableThreads(unsigned wanted) {
  // pthread_create, not std::thread: Kiln builds without exceptions, and
  // the failure must be a count, not an abort.
  struct Gate {
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t opened = PTHREAD_COND_INITIALIZER;
    bool open = false;
  } gate;
  auto wait = [](void *argument) -> void * {
    auto *gate = static_cast<Gate *>(argument);
    pthread_mutex_lock(&gate->mutex);
    while (!gate->open)
      pthread_cond_wait(&gate->opened, &gate->mutex);
    pthread_mutex_unlock(&gate->mutex);
    return nullptr;
  };
  std::vector<pthread_t> started;
  for (unsigned i = 0; i < wanted; ++i) {
    pthread_t thread;
    if (pthread_create(&thread, nullptr, wait, &gate) != 0)
      break;
    started.push_back(thread);
  }
  pthread_mutex_lock(&gate.mutex);
  gate.open = true;
  pthread_cond_broadcast(&gate.opened);
  pthread_mutex_unlock(&gate.mutex);
  for (pthread_t thread : started)
    pthread_join(thread, nullptr);
  return started.size();
}

llvm::Error CompileSession::compile(const CompileRequest &request) const {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  // --kiln-jobs: the context's threads run codegen and LLVM on that many
  // executables at once.
  unsigned jobs = options.serialization.jobs
                      ? options.serialization.jobs
                      : llvm::hardware_concurrency().compute_thread_count();
  std::unique_ptr<llvm::DefaultThreadPool> threads;
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  if (jobs > 1) {
    unsigned startable = countStartableThreads(jobs);
    if (startable < jobs) {
      (request.diagnostics ? *request.diagnostics : llvm::errs())
          << "warning: this process can start " << startable << " of the "
          << jobs
          << " compile threads it wants (a limit on its processes or "
             "threads?); the compile runs on "
          << std::max(startable, 1u) << "\n";
      jobs = std::max(startable, 1u);
    }
  }
  if (jobs > 1) {
    threads = std::make_unique<llvm::DefaultThreadPool>(
        llvm::hardware_concurrency(jobs));
    context.setThreadPool(*threads);
  }
  // A failing pass would attach the whole op it ran on to its error: noise
  // for a user, so only on request.
  llvm::cl::Option *printOp =
      llvm::cl::getRegisteredOptions().lookup("mlir-print-op-on-diagnostic");
  if (!printOp || !printOp->getNumOccurrences())
    context.printOpOnDiagnostic(false);
  std::unique_ptr<PluginSession> plugins = makePluginSession();
  PipelineOptions compileOptions = options;
  compileOptions.serialization.fingerprint =
      makeObjectCodeFingerprint(flags, request.inputFile);

  CompileStatistics statistics;
  attachSessionState(&context, &statistics);
  CompileCancellation cancellation{request.cancel};
  attachSessionState(&context, &cancellation);
  FilesRead filesRead;
  attachSessionState(&context, &filesRead);
  llvm::Error error = llvm::Error::success();
  {
    std::optional<ProgressReporter> progress;
    if (request.showProgress)
      progress.emplace(statistics, request.tool);
    error = compileFile(context, request, compileOptions, plugins.get());
  }
  // MLIR's pass statistics are compiled out of an LLVM built without
  // LLVM_ENABLE_STATS (Debian's): its report is empty. Kiln's own follow it.
  if (llvm::cl::Option *passStatistics =
          llvm::cl::getRegisteredOptions().lookup("mlir-pass-statistics");
      passStatistics && passStatistics->getNumOccurrences()) {
    llvm::raw_ostream &os =
        request.diagnostics ? *request.diagnostics : llvm::errs();
    if (!LLVM_ENABLE_STATS)
      os << "note: this LLVM was built without statistics "
            "(LLVM_ENABLE_STATS), so MLIR's report above is empty\n";
    statistics.printSummary(os);
  }
  if (!error && !options.serialization.objectCacheDir.empty()) {
    llvm::Expected<FileCache> cache = FileCache::open(
        options.serialization.objectCacheDir, ".obj",
        options.serialization.getObjectCacheMaxBytes(), "--kiln-object-cache");
    if (cache)
      cache->trim();
    else
      llvm::consumeError(cache.takeError());
  }
  if (!request.statisticsFile.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", statistics.toJSON()) << "\n";
    std::string why;
    std::unique_ptr<OutputFile> file =
        OutputFile::open(request.statisticsFile, why, {request.inputFile});
    if (!file || !file->write(text.data(), text.size(), why) ||
        !file->commit(why))
      error = llvm::joinErrors(
          std::move(error),
          llvm::createStringError("--kiln-compile-stats: " + why));
  }
  attachSessionState<CompileStatistics>(&context, nullptr);
  attachSessionState<CompileCancellation>(&context, nullptr);
  attachSessionState<FilesRead>(&context, nullptr);
  return error;
}
