//===- TuningOptions.cpp - Tuning specs' flags ----------------------------===//

#include "kiln/Configuration/TuningLibrary.h"
#include "kiln/Options/OptionsBinder.h"

using namespace kiln;

void TuningOptions::bindOptions(OptionsBinder &binder) {
  binder.category("Kiln tuning specs");
  binder.list("kiln-tuning-spec", specFiles,
              llvm::cl::desc("A tuning spec to apply (repeatable; the first "
                             "given has the highest precedence; before the "
                             "ones on KILN_TUNING_SPEC_PATH, plugins' and the "
                             "default)"),
              llvm::cl::value_desc("file"));
  binder.opt("kiln-no-default-tuning-specs", noDefaults,
             llvm::cl::desc("Do not use Kiln's default tuning spec for the "
                            "target CPU"));
  binder.opt("kiln-dump-tuning-specs-to", dumpDir,
             llvm::cl::desc("Write every tuning spec a compile uses, and the "
                            "library they link into, to DIR"),
             llvm::cl::value_desc("dir"));
  binder.opt("kiln-explain-tuning", explain,
             llvm::cl::desc("Print, for each dispatch, the tuning spec or "
                            "heuristic that configured it, and its "
                            "configuration"));
}
