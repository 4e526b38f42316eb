//===- Flags.cpp - Command-line flags of the pipeline ---------------------===//
//
// The pipeline's options, bound by each component (bindOptions), and the
// flags of a tool's session: kiln-compile's and kiln-opt's --kiln-*.
//
//===----------------------------------------------------------------------===//

#include "kiln/Options/OptionsBinder.h"
#include "kiln/Pipeline/Pipeline.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ManagedStatic.h"

#include "llvm/Support/FileSystem.h"

#include <cstdlib>
#include <unistd.h>

using namespace kiln;

void PipelineOptions::bindOptions(OptionsBinder &binder) {
  input.bindOptions(binder);
  target.bindOptions(binder);
  binder.category("Kiln pipeline options");
  binder.opt("kiln-preprocessing-pipeline", preprocessingPipeline,
             llvm::cl::desc("Pass pipeline to run on the whole program in the "
                            "preprocessing phase, as builtin.module(...); its "
                            "passes may come from plugins"),
             llvm::cl::value_desc("pipeline"));
  binder.opt("kiln-preprocessing-transform-spec", preprocessingTransformSpec,
             llvm::cl::desc("Transform-dialect script (a module with "
                            "@__transform_main) to apply to the whole "
                            "program in the preprocessing phase"),
             llvm::cl::value_desc("file"));
  globalOptimization.bindOptions(binder);
  executablePreprocessing.bindOptions(binder);
  tuning.bindOptions(binder);
  serialization.bindOptions(binder);
}

namespace {
/// The options of a tool's one session, bound to its command line.
struct FlagOptions {
  PipelineOptions options;
  FlagOptions() {
    OptionsBinder binder = OptionsBinder::global();
    options.bindOptions(binder);
  }
};
} // namespace

static llvm::ManagedStatic<FlagOptions> flags;

/// Flags that do not change what a compile makes of an executable.
static bool isNeutralFlag(llvm::StringRef name) {
  return llvm::is_contained({"o", "kiln-jobs", "kiln-object-cache",
                             "kiln-object-cache-max-size", "kiln-compile-stats",
                             "quiet", "compile-to", "compile-from",
                             "emit-bytecode"},
                            name) ||
         name.starts_with("mlir-timing");
}

/// What else than its IR determines an executable's object code: the flags
/// of the session (all but those that cannot matter, and not the program
/// itself), the files they name (a plugin library, by size and
/// modification time) and Kiln's environment variables.
std::string kiln::makeObjectCodeFingerprint(llvm::ArrayRef<std::string> flags,
                                            llvm::StringRef inputFile) {
  std::string fingerprint;
  bool skipValue = false;
  for (const std::string &flag : flags) {
    if (skipValue) {
      skipValue = false;
      continue;
    }
    llvm::StringRef body = flag;
    if (body.consume_front("--") || body.consume_front("-")) {
      auto [name, value] = body.split('=');
      if (isNeutralFlag(name)) {
        // `-o FILE`: the value is the next argument.
        skipValue = !body.contains('=') && name == "o";
        continue;
      }
      fingerprint += flag + "\n";
      llvm::sys::fs::file_status status;
      if (!value.empty() && !llvm::sys::fs::status(value, status) &&
          llvm::sys::fs::is_regular_file(status))
        fingerprint +=
            "  " + std::to_string(status.getSize()) + " " +
            std::to_string(
                status.getLastModificationTime().time_since_epoch().count()) +
            "\n";
      continue;
    }
    if (flag != inputFile)
      fingerprint += flag + "\n";
  }
  for (char **entry = environ; *entry; ++entry) {
    llvm::StringRef variable(*entry);
    if (variable.starts_with("KILN_") &&
        !variable.starts_with("KILN_OBJECT_CACHE="))
      fingerprint += variable.str() + "\n";
  }
  return fingerprint;
}

void kiln::setFlagsFingerprint(std::string fingerprint) {
  flags->options.serialization.fingerprint = std::move(fingerprint);
}

std::vector<std::string> kiln::getTuningSpecSearchPath() {
  std::vector<std::string> entries;
  const char *path = std::getenv("KILN_TUNING_SPEC_PATH");
  if (!path)
    return entries;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(path).split(parts, ':', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts)
    entries.push_back(part.str());
  return entries;
}

void kiln::registerPipelineFlags() { *flags; }

PipelineOptions kiln::getPipelineOptionsFromFlags() {
  PipelineOptions options =
      flags.isConstructed() ? flags->options : PipelineOptions();
  options.tuning.searchPath = getTuningSpecSearchPath();
  return options;
}
