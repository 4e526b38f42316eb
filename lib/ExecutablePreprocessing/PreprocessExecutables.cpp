//===- PreprocessExecutables.cpp - Executables through commands -----------===//
//
// Every kiln.executable, printed, goes through the commands in order. Tool
// processes run on `jobs` threads, which bounds how many run at once; what
// Kiln does with each result (parse and verify it as one kiln.executable of
// the same name, cache it) and in-process pipelines run on checking
// threads, each with its own MLIRContext, so that a tool thread goes
// straight on to its next process. Diagnostics are captured, so that
// errors come out whole and in program order, and the main thread parses
// each final text back in place of its executable as results come in.
//
//===----------------------------------------------------------------------===//

#include "kiln/Cache/FileCache.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutablePreprocessing/CheckInterface.h"
#include "kiln/ExecutablePreprocessing/Preprocess.h"
#include "kiln/ExecutablePreprocessing/Process.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/Support/OutputFile.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include <unistd.h>

using namespace mlir;
using namespace kiln;

/// The folder of --kiln-preprocess-executables-cache: entries without a
/// size limit (they are small, and a compile's own preprocessing results
/// are in it).
static llvm::Expected<FileCache> openCache(llvm::StringRef dir) {
  return FileCache::open(dir, ".mlir", /*maxBytes=*/0,
                         "--kiln-preprocess-executables-cache");
}

static bool isPipeline(llvm::StringRef command) {
  return command.trim().starts_with("builtin.module(");
}

llvm::Error kiln::verifyExecutablePreprocessingOptions(
    const ExecutablePreprocessingOptions &options) {
  if (options.format != "text" && options.format != "generic" &&
      options.format != "bytecode")
    return llvm::createStringError("--kiln-preprocess-executables-format='" +
                                   options.format +
                                   "' is not one of text, generic, bytecode");
  if (!(options.timeoutSeconds > 0))
    return llvm::createStringError(
        "--kiln-preprocess-executables-timeout must be a positive number of "
        "seconds");
  for (const std::string &spec : options.substitutions) {
    auto [name, file] = llvm::StringRef(spec).split('=');
    if (name.empty() || file.empty())
      return llvm::createStringError("--kiln-substitute-executable='" + spec +
                                     "' must be NAME=FILE");
    if (!llvm::sys::fs::exists(file))
      return llvm::createStringError("--kiln-substitute-executable='" + spec +
                                     "': no such file '" + file + "'");
    // A FIFO or a device would hang the compile, a folder abort it.
    std::string why;
    if (!checkReadableFile(file.str(), why))
      return llvm::createStringError("--kiln-substitute-executable='" + spec +
                                     "': cannot read '" + file + "': " + why);
  }
  if (!options.cacheDir.empty())
    if (llvm::Expected<FileCache> cache = openCache(options.cacheDir); !cache)
      return cache.takeError();
  for (const std::string &command : options.commands) {
    if (isPipeline(command)) {
      std::string errors;
      llvm::raw_string_ostream os(errors);
      if (failed(parsePassPipeline(command, os)))
        return llvm::createStringError(
            "--kiln-preprocess-executables-with='" + command +
            "' does not parse: " + llvm::StringRef(errors).trim().str());
      continue;
    }
    llvm::Expected<std::vector<std::string>> words = splitCommandLine(command);
    if (!words)
      return llvm::createStringError("--kiln-preprocess-executables-with: " +
                                     llvm::toString(words.takeError()));
    if (llvm::Expected<std::string> program = findProgram(words->front());
        !program)
      return llvm::createStringError(
          "--kiln-preprocess-executables-with='" + command +
          "': " + llvm::toString(program.takeError()));
  }
  return llvm::Error::success();
}

namespace {

/// One step of one executable, between the threads that run tools and the
/// threads that check and run pipelines.
struct Step {
  size_t index = 0;       // of the executable
  size_t command = 0;     // index into the commands
  std::string input;      // what the command gets
  std::string output;     // what it gave (a tool's stdout or a cache entry)
  std::string errorText;  // a tool's stderr, described
  std::string cacheKey;   // of its result, or "" without a cache
  bool fromCache = false; // output is a cache entry, not checked yet
  bool skipCache = false; // a damaged entry was found: run the tool
};

/// A queue of steps that threads wait on until it is closed.
class StepQueue {
public:
  void push(Step step) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      steps.push_back(std::move(step));
    }
    ready.notify_one();
  }
  /// The next step, or nothing once the queue is closed.
  std::optional<Step> pop() {
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [&] { return closed || !steps.empty(); });
    if (steps.empty())
      return std::nullopt;
    Step step = std::move(steps.front());
    steps.pop_front();
    return step;
  }
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      closed = true;
    }
    ready.notify_all();
  }

private:
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<Step> steps;
  bool closed = false;
};

/// What happened to one executable.
struct Outcome {
  bool done = false;
  std::string text;  // the final form, on success
  std::string error; // the message, on failure
  /// Cache entries that could not be used, and why.
  std::vector<std::string> warnings;
};

class PreprocessExecutablesPass
    : public PassWrapper<PreprocessExecutablesPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PreprocessExecutablesPass)

  explicit PreprocessExecutablesPass(ExecutablePreprocessingOptions options)
      : options(std::move(options)) {}
  PreprocessExecutablesPass(const PreprocessExecutablesPass &other)
      : PassWrapper(other), options(other.options) {}

  llvm::StringRef getArgument() const override {
    return "kiln-preprocess-executables";
  }
  llvm::StringRef getDescription() const override {
    return "Hand every executable to pass pipelines and external tools";
  }

  /// Tool processes run on `jobs` threads (the bound on processes at
  /// once); Kiln's own work on each result (parsing and verifying it,
  /// running in-process pipelines, caching) runs on other threads, one
  /// MLIRContext each, so that the tool threads go straight on to the next
  /// process. The main thread prints the executables and puts the results
  /// back, in program order, as they come in.
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ExecutableOp> executables =
        llvm::to_vector(module.getOps<ExecutableOp>());
    if (executables.empty() || options.commands.empty())
      return;
    run = std::make_unique<RunState>();
    for (ExecutableOp executable : executables)
      run->names.push_back(executable.getSymName().str());
    run->outcomes.resize(executables.size());
    // Each tool's command line, split and its program found once.
    for (const std::string &command : options.commands) {
      run->argv.emplace_back();
      run->argvError.emplace_back();
      if (isPipeline(command))
        continue;
      llvm::Expected<std::vector<std::string>> words =
          splitCommandLine(command);
      if (!words) {
        run->argvError.back() = llvm::toString(words.takeError());
        continue;
      }
      llvm::Expected<std::string> program = findProgram(words->front());
      if (!program) {
        run->argvError.back() = llvm::toString(program.takeError());
        continue;
      }
      (*words)[0] = *program;
      run->argv.back() = std::move(*words);
    }
    if (!options.cacheDir.empty()) {
      llvm::Expected<FileCache> cache = openCache(options.cacheDir);
      if (!cache) {
        getOperation().emitError() << llvm::toString(cache.takeError());
        return signalPassFailure();
      }
      run->cache.emplace(std::move(*cache));
      for (const std::vector<std::string> &argv : run->argv)
        run->toolIdentity.push_back(describeToolFiles(argv));
    }

    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    unsigned jobs = options.jobs ? options.jobs : cores;
    jobs = std::max(1u, std::min<unsigned>(jobs, executables.size()));
    unsigned checkers = std::min<unsigned>(cores, executables.size());
    bool anyTool = llvm::any_of(
        options.commands, [](const std::string &c) { return !isPipeline(c); });
    const DialectRegistry &registry = getContext().getDialectRegistry();
    std::vector<std::thread> threads;
    if (anyTool)
      for (unsigned j = 0; j < jobs; ++j)
        threads.emplace_back([&] {
          while (std::optional<Step> step = run->toolSteps.pop())
            runTool(std::move(*step));
        });
    for (unsigned j = 0; j < checkers; ++j)
      threads.emplace_back([&] {
        MLIRContext context(registry, MLIRContext::Threading::DISABLED);
        while (std::optional<Step> step = run->checkSteps.pop())
          check(context, std::move(*step));
      });

    for (auto [index, executable] : llvm::enumerate(executables)) {
      Step step;
      step.index = index;
      step.input = print(executable, options.format);
      schedule(std::move(step));
    }

    bool failed = false;
    for (auto [position, executable] : llvm::enumerate(executables)) {
      size_t index = position; // lambdas cannot capture structured bindings
      Outcome outcome;
      {
        std::unique_lock<std::mutex> lock(run->outcomeMutex);
        run->outcomeReady.wait(lock, [&] { return run->outcomes[index].done; });
        outcome = std::move(run->outcomes[index]);
      }
      for (const std::string &warning : outcome.warnings)
        executable.emitWarning() << warning;
      if (!outcome.error.empty()) {
        executable.emitError() << outcome.error;
        failed = true;
        continue;
      }
      if (mlir::failed(replace(executable, outcome.text)))
        failed = true;
    }
    run->toolSteps.close();
    run->checkSteps.close();
    for (std::thread &thread : threads)
      thread.join();
    run.reset();
    if (failed)
      signalPassFailure();
  }

private:
  static std::string print(Operation *op, llvm::StringRef format) {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (format == "bytecode") {
      (void)writeBytecodeToFile(op, os);
    } else {
      // Local scope: numbering only this op, not the whole program around
      // it (which made printing every executable quadratic).
      OpPrintingFlags flags;
      flags.useLocalScope().assumeVerified();
      if (format == "generic")
        flags.printGenericOpForm();
      op->print(os, flags);
      os << "\n";
    }
    return text;
  }

  /// Sends `step` to its command, or finishes its executable after the
  /// last one.
  void schedule(Step step) {
    if (step.command == options.commands.size())
      return finish(step.index, std::move(step.input), "");
    if (isPipeline(options.commands[step.command]))
      run->checkSteps.push(std::move(step));
    else
      run->toolSteps.push(std::move(step));
  }

  /// Moves `step` on to the next command, with its output as the input.
  void advance(const Step &step, std::string output) {
    Step next;
    next.index = step.index;
    next.command = step.command + 1;
    next.input = std::move(output);
    schedule(std::move(next));
  }

  /// Records the outcome of executable `index`.
  /// Notes, for executable `index`, a cache entry it could not use.
  void warn(size_t index, std::string warning) {
    std::lock_guard<std::mutex> lock(run->outcomeMutex);
    run->outcomes[index].warnings.push_back(std::move(warning));
  }

  void finish(size_t index, std::string text, std::string error) {
    {
      std::lock_guard<std::mutex> lock(run->outcomeMutex);
      run->outcomes[index].text = std::move(text);
      run->outcomes[index].error = std::move(error);
      run->outcomes[index].done = true;
    }
    run->outcomeReady.notify_all();
  }

  /// Fails executable `step.index` at its command with `error`, keeping the
  /// input that reproduces it.
  void fail(const Step &step, llvm::StringRef error) {
    const std::string &command = options.commands[step.command];
    const std::string &name = run->names[step.index];
    std::string message = "preprocessing executable @" + name + " with '" +
                          command + "' failed: " + error.str();
    std::string reproducer = keepReproducer(name, step.input);
    if (!reproducer.empty())
      message += "\nthe input that reproduces it: " + reproducer +
                 (isPipeline(command)
                      ? ""
                      : " (run: " + command + " < " + reproducer + ")");
    finish(step.index, "", std::move(message));
  }

  /// On a checking thread: runs an in-process pipeline, or checks what a
  /// tool (or the cache) gave.
  void check(MLIRContext &context, Step step) {
    const std::string &command = options.commands[step.command];
    const std::string &name = run->names[step.index];
    if (isPipeline(command)) {
      std::string output;
      std::string error =
          runPipeline(context, name, command, step.input, output);
      if (!error.empty())
        return fail(step, error);
      return advance(step, std::move(output));
    }
    std::string errors;
    OwningOpRef<ModuleOp> replacement = parseReplacementExecutable(
        context, name, step.output, "<tool output>", errors);
    if (step.fromCache) {
      if (replacement)
        return advance(step, std::move(step.output));
      // A damaged entry: run the tool and replace it.
      warn(step.index, "cache entry '" +
                           run->cache->getEntryPath(step.cacheKey) +
                           "' is not used: it is not a valid replacement "
                           "executable; it is made again");
      step.fromCache = false;
      step.skipCache = true;
      step.output.clear();
      return run->toolSteps.push(std::move(step));
    }
    if (!replacement)
      return fail(step, errors + step.errorText);
    if (!step.cacheKey.empty())
      storeInCache(step.cacheKey, *replacement, step.output);
    advance(step, std::move(step.output));
  }

  std::string runPipeline(MLIRContext &context, llvm::StringRef name,
                          llvm::StringRef command, llvm::StringRef input,
                          std::string &output) const {
    std::string errors;
    OwningOpRef<ModuleOp> module = parseReplacementExecutable(
        context, name, input, "<tool output>", errors);
    if (!module)
      return "its input does not parse: " + errors;
    FailureOr<OpPassManager> pipeline = parsePassPipeline(command);
    if (mlir::failed(pipeline))
      return "the pipeline does not parse";
    PassManager pm(&context, ModuleOp::getOperationName());
    static_cast<OpPassManager &>(pm) = *pipeline;
    {
      llvm::raw_string_ostream os(errors);
      ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          os << diag.str() << "\n";
        return success();
      });
      if (mlir::failed(pm.run(*module)))
        return "the pipeline failed:\n" + llvm::StringRef(errors).trim().str();
    }
    std::string checkErrors;
    std::string printed = print(&module->getBody()->front(), options.format);
    if (!parseReplacementExecutable(context, name, printed, "<pipeline output>",
                                    checkErrors))
      return "the pipeline's result is not a valid replacement: " + checkErrors;
    output = std::move(printed);
    return "";
  }

  /// On a tool thread: runs the tool of `step` (or takes its result from
  /// the cache) and hands the output on to be checked.
  void runTool(Step step) {
    if (!run->argvError[step.command].empty())
      return fail(step, run->argvError[step.command]);
    const std::vector<std::string> &argv = run->argv[step.command];
    step.cacheKey = getCacheKey(step.command, step.input);
    if (!step.cacheKey.empty() && !step.skipCache) {
      FileCache::Lookup cached = run->cache->read(step.cacheKey);
      if (!cached.problem.empty())
        warn(step.index, cached.problem);
      if (cached.content) {
        step.output = std::move(*cached.content);
        step.fromCache = true;
        return run->checkSteps.push(std::move(step));
      }
    }
    ProcessLimits limits;
    limits.timeout = std::chrono::milliseconds(
        static_cast<int64_t>(options.timeoutSeconds * 1000));
    limits.maxOutputBytes = options.maxOutputBytes;
    llvm::Expected<ProcessResult> result = runProcess(argv, step.input, limits);
    if (!result)
      return fail(step, llvm::toString(result.takeError()));
    if (!result->succeeded())
      return fail(step, "the tool " + result->describeFailure(limits) +
                            describeStderr(*result));
    step.errorText = describeStderr(*result);
    step.output = std::move(result->output);
    run->checkSteps.push(std::move(step));
  }

  /// The files a tool's command line names (its program and, say, its
  /// script), by path, size and modification time; part of its cache key.
  static std::string describeToolFiles(llvm::ArrayRef<std::string> argv) {
    std::string identity;
    for (const std::string &path : argv) {
      llvm::sys::fs::file_status status;
      if (llvm::sys::fs::status(path, status) ||
          !llvm::sys::fs::is_regular_file(status))
        continue;
      identity +=
          path + "|" + std::to_string(status.getSize()) + "|" +
          std::to_string(
              status.getLastModificationTime().time_since_epoch().count()) +
          "\n";
    }
    return identity;
  }

  /// The cache key of the result of command `index` on `input`, or ""
  /// without a cache. The key covers the format, the command line, the
  /// tool's files and the input, so that a changed tool or executable
  /// misses.
  std::string getCacheKey(size_t index, llvm::StringRef input) const {
    if (!run->cache)
      return "";
    return FileCache::makeKey({options.format, options.commands[index],
                               run->toolIdentity[index], input});
  }

  /// Caches `text`, the tool's output, parsed as `replacement`. Object
  /// files it attaches are copied into the cache (named by their content)
  /// and the entry points at the copies, so that a hit does not depend on
  /// files the tool may have written to a temporary place.
  void storeInCache(llvm::StringRef key, ModuleOp replacement,
                    llvm::StringRef text) const {
    bool hasObjects = false;
    replacement.walk([&](ExecutableVariantOp variant) {
      hasObjects |=
          variant.getObjectsAttr() && !variant.getObjectsAttr().empty();
    });
    if (!hasObjects)
      return run->cache->write(key, text);
    MLIRContext *context = replacement.getContext();
    bool copied = true;
    replacement.walk([&](ExecutableVariantOp variant) {
      ArrayAttr objects = variant.getObjectsAttr();
      if (!objects)
        return;
      SmallVector<Attribute> cachedObjects;
      for (auto object : objects.getAsRange<ObjectAttr>()) {
        std::string cachedPath = copyObjectIntoCache(object.getAbsolutePath());
        copied &= !cachedPath.empty();
        cachedObjects.push_back(
            ObjectAttr::get(context, StringAttr::get(context, cachedPath)));
      }
      variant.setObjectsAttr(ArrayAttr::get(context, cachedObjects));
    });
    if (copied)
      run->cache->write(key, print(&replacement.getBody()->front(), "text"));
  }

  /// Copies an object file to `<cache>/objects/<SHA-256 of it>.<ext>`
  /// unless it is there already; returns the copy's path, or "".
  std::string copyObjectIntoCache(llvm::StringRef source) const {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> content =
        llvm::MemoryBuffer::getFile(source, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!content)
      return "";
    llvm::SmallString<256> path(options.cacheDir);
    llvm::sys::path::append(path, "objects");
    if (llvm::sys::fs::create_directories(path))
      return "";
    llvm::sys::path::append(
        path, llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(
                              (*content)->getBuffer())),
                          true) +
                  llvm::sys::path::extension(source).str());
    if (!llvm::sys::fs::exists(path))
      writeCacheFile(path, (*content)->getBuffer());
    return llvm::sys::fs::exists(path) ? std::string(path) : "";
  }

  /// The first lines of the tool's stderr, or nothing.
  static std::string describeStderr(const ProcessResult &result) {
    llvm::StringRef text = llvm::StringRef(result.errorOutput).rtrim();
    if (text.empty())
      return "";
    llvm::SmallVector<llvm::StringRef> lines;
    text.split(lines, '\n');
    std::string described = "\nits stderr began:";
    for (llvm::StringRef line : llvm::ArrayRef(lines).take_front(10))
      described += "\n  " + line.str();
    if (lines.size() > 10 || result.errorBytesDropped)
      described += "\n  ...";
    return described;
  }

  /// Writes `input` to a file that outlives the compile, for the user to
  /// rerun the failing step on; returns its path, or "" when it cannot.
  std::string keepReproducer(llvm::StringRef name,
                             llvm::StringRef input) const {
    llvm::SmallString<256> path;
    std::string extension = options.format == "bytecode" ? "mlirbc" : "mlir";
    int fd;
    if (llvm::sys::fs::createTemporaryFile("kiln-preprocess-" + name.str(),
                                           extension, fd, path))
      return "";
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << input;
    return std::string(path);
  }

  /// Puts the final text in place of `executable`.
  LogicalResult replace(ExecutableOp executable, llvm::StringRef text) {
    // The worker verified this text already, in a context with the same
    // dialects.
    ParserConfig config(&getContext(), /*verifyAfterParse=*/false);
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(text, config, "<preprocessed>");
    if (!parsed)
      return executable.emitError("the preprocessed executable no longer "
                                  "parses in the compiler's context");
    std::string why;
    if (failed(replaceExecutable(
            executable, cast<ExecutableOp>(parsed->getBody()->front()), why)))
      return executable.emitError()
             << "the preprocessed executable does not fit its dispatches: "
             << why;
    return success();
  }

  ExecutablePreprocessingOptions options;

  /// The state of one run of the pass.
  struct RunState {
    std::vector<std::string> names;
    /// Per command: a tool's argv with its program found, or why not.
    std::vector<std::vector<std::string>> argv;
    std::vector<std::string> argvError;
    /// Per command, with a cache: describeToolFiles of its argv.
    std::vector<std::string> toolIdentity;
    /// The cache, with --kiln-preprocess-executables-cache.
    std::optional<FileCache> cache;
    StepQueue toolSteps;  // waiting for a tool process
    StepQueue checkSteps; // waiting for Kiln's own work
    std::mutex outcomeMutex;
    std::condition_variable outcomeReady;
    std::vector<Outcome> outcomes;
  };
  std::unique_ptr<RunState> run;
};

} // namespace

std::unique_ptr<Pass>
kiln::createPreprocessExecutablesPass(ExecutablePreprocessingOptions options) {
  return std::make_unique<PreprocessExecutablesPass>(std::move(options));
}
