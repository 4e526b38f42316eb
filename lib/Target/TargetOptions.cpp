//===- TargetOptions.cpp - Which targets a compile is for -----------------===//

#include "kiln/Options/OptionsBinder.h"
#include "kiln/Target/TargetBackend.h"

using namespace kiln;

void TargetOptions::bindOptions(OptionsBinder &binder) {
  binder.category("Kiln pipeline options");
  binder.list("kiln-target", backends,
              llvm::cl::desc("Target backend to compile executables for; "
                             "repeat or separate with commas for several "
                             "(default: llvm-cpu)"),
              llvm::cl::CommaSeparated);
  binder.opt("kiln-target-cpu", cpu,
             llvm::cl::desc("CPU to compile for: 'host' (detected through "
                            "LLVM) or an LLVM CPU name such as znver4"));
  binder.opt("kiln-target-cpu-features", cpuFeatures,
             llvm::cl::desc("Comma-separated +feature/-feature edits of the "
                            "CPU's own features"));
}
