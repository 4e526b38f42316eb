//===- PreprocessExecutables.cpp - Executables through commands -----------===//
//
// Every kiln.executable, printed, goes through the commands in order on a
// worker thread; each step takes the executable's text (or bytecode) and
// gives the next: an in-process pipeline parses it into the worker's own
// context and prints the result, an external tool gets it on stdin and
// prints the result. The worker checks each result (it parses, verifies,
// is one kiln.executable with the same name) with diagnostics captured, so
// that errors come out whole and in program order, and the main thread
// parses the final text back in place of the executable.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/ExecutablePreprocessing/Preprocess.h"
#include "kiln/ExecutablePreprocessing/Process.h"
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

#include <atomic>
#include <thread>

using namespace mlir;
using namespace kiln;

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
  }
  if (!options.cacheDir.empty()) {
    if (std::error_code error =
            llvm::sys::fs::create_directories(options.cacheDir))
      return llvm::createStringError(
          "--kiln-preprocess-executables-cache='" + options.cacheDir +
          "': cannot create the folder: " + error.message());
  }
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

/// What happened to one executable.
struct Outcome {
  std::string text;       // the final form, on success
  std::string error;      // the message, on failure
  std::string reproducer; // the kept input of the failing step
};

class PreprocessExecutablesPass
    : public PassWrapper<PreprocessExecutablesPass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(PreprocessExecutablesPass)

  explicit PreprocessExecutablesPass(ExecutablePreprocessingOptions options)
      : options(std::move(options)) {}

  llvm::StringRef getArgument() const override {
    return "kiln-preprocess-executables";
  }
  llvm::StringRef getDescription() const override {
    return "Hand every executable to pass pipelines and external tools";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ExecutableOp> executables =
        llvm::to_vector(module.getOps<ExecutableOp>());
    if (executables.empty() || options.commands.empty())
      return;

    std::vector<std::string> inputs;
    for (ExecutableOp executable : executables)
      inputs.push_back(print(executable, options.format));

    // Workers take executables in order; each runs every command on its
    // executable. Their number bounds the tool processes at once.
    unsigned jobs =
        options.jobs ? options.jobs : std::thread::hardware_concurrency();
    jobs = std::max(1u, std::min<unsigned>(jobs, executables.size()));
    const DialectRegistry &registry = getContext().getDialectRegistry();
    std::vector<Outcome> outcomes(executables.size());
    std::vector<std::string> names;
    for (ExecutableOp executable : executables)
      names.push_back(executable.getSymName().str());
    std::atomic<size_t> next{0};
    auto work = [&] {
      MLIRContext context(registry, MLIRContext::Threading::DISABLED);
      for (size_t i = next++; i < executables.size(); i = next++)
        outcomes[i] = process(context, names[i], inputs[i]);
    };
    std::vector<std::thread> workers;
    for (unsigned j = 1; j < jobs; ++j)
      workers.emplace_back(work);
    work();
    for (std::thread &worker : workers)
      worker.join();

    bool failed = false;
    for (auto [executable, outcome] : llvm::zip(executables, outcomes)) {
      if (!outcome.error.empty()) {
        executable.emitError() << outcome.error;
        failed = true;
        continue;
      }
      if (mlir::failed(replace(executable, outcome.text)))
        failed = true;
    }
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

  /// Parses `text` in `context` as a replacement of executable `name`:
  /// exactly one kiln.executable of that name, valid. Diagnostics go to
  /// `errors`.
  static OwningOpRef<ModuleOp> parseReplacement(MLIRContext &context,
                                                llvm::StringRef name,
                                                llvm::StringRef text,
                                                std::string &errors) {
    llvm::raw_string_ostream os(errors);
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error) {
        if (auto where = dyn_cast<FileLineColLoc>(diag.getLocation()))
          os << where.getFilename().getValue() << ":" << where.getLine() << ":"
             << where.getColumn() << ": ";
        os << diag.str() << "\n";
      }
      return success();
    });
    if (text.trim().empty()) {
      os << "it printed nothing";
      return nullptr;
    }
    ParserConfig config(&context);
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(text, config, "<tool output>");
    if (!module) {
      errors = "its output is not valid MLIR:\n" +
               llvm::StringRef(errors).rtrim().str();
      return nullptr;
    }
    auto &ops = module->getBody()->getOperations();
    auto executable =
        ops.size() == 1 ? dyn_cast<ExecutableOp>(ops.front()) : ExecutableOp();
    if (!executable) {
      os << "its output holds " << ops.size() << " top-level op"
         << (ops.size() == 1 ? "" : "s") << " ("
         << llvm::join(
                llvm::map_range(ops,
                                [](Operation &op) {
                                  return op.getName().getStringRef().str();
                                }),
                ", ")
         << "), not one kiln.executable";
      return nullptr;
    }
    if (executable.getSymName() != name) {
      os << "it renamed the executable @" << name << " to @"
         << executable.getSymName() << "; it must keep its name";
      return nullptr;
    }
    return module;
  }

  /// Runs every command on one executable, in a worker's context.
  Outcome process(MLIRContext &context, llvm::StringRef name,
                  std::string text) const {
    for (const std::string &command : options.commands) {
      std::string error;
      std::string next;
      if (isPipeline(command))
        error = runPipeline(context, name, command, text, next);
      else
        error = runTool(context, name, command, text, next);
      if (!error.empty()) {
        Outcome outcome;
        outcome.reproducer = keepReproducer(name, text);
        outcome.error = "preprocessing executable @" + name.str() + " with '" +
                        command + "' failed: " + error;
        if (!outcome.reproducer.empty())
          outcome.error +=
              "\nthe input that reproduces it: " + outcome.reproducer +
              (isPipeline(command)
                   ? ""
                   : " (run: " + command + " < " + outcome.reproducer + ")");
        return outcome;
      }
      text = std::move(next);
    }
    Outcome outcome;
    outcome.text = std::move(text);
    return outcome;
  }

  std::string runPipeline(MLIRContext &context, llvm::StringRef name,
                          llvm::StringRef command, llvm::StringRef input,
                          std::string &output) const {
    std::string errors;
    OwningOpRef<ModuleOp> module =
        parseReplacement(context, name, input, errors);
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
    if (!parseReplacement(context, name, printed, checkErrors))
      return "the pipeline's result is not a valid replacement: " + checkErrors;
    output = std::move(printed);
    return "";
  }

  std::string runTool(MLIRContext &context, llvm::StringRef name,
                      llvm::StringRef command, llvm::StringRef input,
                      std::string &output) const {
    llvm::Expected<std::vector<std::string>> words = splitCommandLine(command);
    if (!words)
      return llvm::toString(words.takeError());
    llvm::Expected<std::string> program = findProgram(words->front());
    if (!program)
      return llvm::toString(program.takeError());
    (*words)[0] = *program;
    ProcessLimits limits;
    limits.timeout = std::chrono::milliseconds(
        static_cast<int64_t>(options.timeoutSeconds * 1000));
    limits.maxOutputBytes = options.maxOutputBytes;
    // A result kept from an earlier compile, if any.
    std::string cachePath = getCachePath(command, *program, input);
    if (!cachePath.empty()) {
      if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> cached =
              llvm::MemoryBuffer::getFile(cachePath)) {
        std::string errors;
        std::string text = (*cached)->getBuffer().str();
        if (parseReplacement(context, name, text, errors)) {
          output = std::move(text);
          return "";
        }
        // A damaged entry: run the tool and replace it.
      }
    }
    llvm::Expected<ProcessResult> result = runProcess(*words, input, limits);
    if (!result)
      return llvm::toString(result.takeError());
    if (!result->succeeded())
      return "the tool " + result->describeFailure(limits) +
             describeStderr(*result);
    std::string errors;
    if (!parseReplacement(context, name, result->output, errors))
      return errors + describeStderr(*result);
    if (!cachePath.empty())
      storeInCache(cachePath, result->output);
    output = std::move(result->output);
    return "";
  }

  /// Where the result of `command` (running `program`) on `input` is
  /// cached, or "" without a cache. The key covers the format, the command
  /// line, the program's file and the input, so that a changed tool or
  /// executable misses.
  std::string getCachePath(llvm::StringRef command, llvm::StringRef program,
                           llvm::StringRef input) const {
    if (options.cacheDir.empty())
      return "";
    llvm::SHA256 hash;
    // The program's file, and every file the command names (a script),
    // by path, size and modification time.
    std::string identity;
    auto addFile = [&](llvm::StringRef path) {
      llvm::sys::fs::file_status status;
      if (llvm::sys::fs::status(path, status) ||
          !llvm::sys::fs::is_regular_file(status))
        return;
      identity +=
          path.str() + "|" + std::to_string(status.getSize()) + "|" +
          std::to_string(
              status.getLastModificationTime().time_since_epoch().count()) +
          "\n";
    };
    addFile(program);
    if (llvm::Expected<std::vector<std::string>> words =
            splitCommandLine(command))
      for (const std::string &word : llvm::drop_begin(*words))
        addFile(word);
    else
      llvm::consumeError(words.takeError());
    for (llvm::StringRef part : {llvm::StringRef(options.format), command,
                                 llvm::StringRef(identity), input}) {
      hash.update(std::to_string(part.size()));
      hash.update(":");
      hash.update(part);
    }
    llvm::SmallString<256> path(options.cacheDir);
    llvm::sys::path::append(path, llvm::toHex(hash.final(), true) + ".mlir");
    return std::string(path);
  }

  /// Writes a cache entry atomically (a temporary file renamed into
  /// place), so that concurrent compiles never read half an entry.
  /// Failures only cost a miss next time.
  static void storeInCache(llvm::StringRef path, llvm::StringRef text) {
    llvm::SmallString<256> temporary;
    int fd;
    if (llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temporary))
      return;
    {
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << text;
      if (os.has_error()) {
        os.clear_error();
        llvm::sys::fs::remove(temporary);
        return;
      }
    }
    if (llvm::sys::fs::rename(temporary, path))
      llvm::sys::fs::remove(temporary);
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
    ParserConfig config(&getContext());
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(text, config, "<preprocessed>");
    if (!parsed)
      return executable.emitError("the preprocessed executable no longer "
                                  "parses in the compiler's context");
    Operation &replacement = parsed->getBody()->front();
    replacement.remove();
    OpBuilder(executable).insert(&replacement);
    executable.erase();
    return success();
  }

  ExecutablePreprocessingOptions options;
};

} // namespace

std::unique_ptr<Pass>
kiln::createPreprocessExecutablesPass(ExecutablePreprocessingOptions options) {
  return std::make_unique<PreprocessExecutablesPass>(std::move(options));
}
