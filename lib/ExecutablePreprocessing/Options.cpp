//===- Options.cpp - Executable preprocessing's flags ---------------------===//

#include "kiln/ExecutablePreprocessing/Preprocess.h"
#include "kiln/Options/OptionsBinder.h"

using namespace kiln;

void ExecutablePreprocessingOptions::bindOptions(OptionsBinder &binder) {
  binder.category("Kiln executable preprocessing");
  binder.list("kiln-preprocess-executables-with", commands,
              llvm::cl::desc("Hand every executable to COMMAND at the end of "
                             "the executable-sources phase: a pass pipeline "
                             "(builtin.module(...)) run in-process, or a "
                             "program reading the executable on stdin and "
                             "printing its replacement; repeat to chain"),
              llvm::cl::value_desc("command"));
  binder.opt("kiln-preprocess-executables-format", format,
             llvm::cl::desc("What a tool receives: text, generic (generic op "
                            "form) or bytecode"));
  binder.opt("kiln-preprocess-executables-jobs", jobs,
             llvm::cl::desc("Tool processes at once (default 0: the number "
                            "of cores)"));
  binder.opt("kiln-preprocess-executables-timeout", timeoutSeconds,
             llvm::cl::desc("Seconds after which a tool is killed with its "
                            "process group (default 300)"));
  binder.opt("kiln-preprocess-executables-max-output", maxOutputBytes,
             llvm::cl::desc("Bytes a tool may print before it is killed "
                            "(default 256 MiB)"));
  binder.opt("kiln-preprocess-executables-cache", cacheDir,
             llvm::cl::desc("Keep tools' results in DIR and reuse them for "
                            "unchanged executables, commands and tools"),
             llvm::cl::value_desc("dir"));
  binder.opt("kiln-dump-executables-to", dumpDir,
             llvm::cl::desc("Write every executable to DIR before and after "
                            "preprocessing and after configuration "
                            "(<name>.sources/preprocessed/configured.mlir)"),
             llvm::cl::value_desc("dir"));
  binder.list("kiln-substitute-executable", substitutions,
              llvm::cl::desc("Replace executable NAME with the one in FILE "
                             "after preprocessing (repeatable)"),
              llvm::cl::value_desc("name=file"));
}
