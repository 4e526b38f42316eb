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
  binder.list("kiln-target-cpu", cpus,
              llvm::cl::desc("CPU to compile for: 'host' (detected through "
                             "LLVM) or an LLVM CPU name such as znver4; "
                             "repeat or separate with commas for one module "
                             "that runs the best of them the CPU it loads "
                             "on can run (default: host)"),
              llvm::cl::CommaSeparated);
  binder.opt("kiln-target-cpu-features", cpuFeatures,
             llvm::cl::desc("Comma-separated +feature/-feature edits of "
                            "each target CPU's own features"));
}
