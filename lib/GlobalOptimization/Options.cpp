//===- Options.cpp - The global optimization phase's flags ----------------===//

#include "kiln/GlobalOptimization/Options.h"
#include "kiln/Options/OptionsBinder.h"

using namespace kiln;

void GlobalOptimizationOptions::bindOptions(OptionsBinder &binder) {
  binder.category("Kiln pipeline options");
  binder.opt("kiln-accumulate-narrow-floats-in-f32", widenNarrowAccumulators,
             llvm::cl::desc("Accumulate sums and products of f16, bf16 and "
                            "8-bit floats (reductions, matmuls, "
                            "convolutions) in f32 and round once (default "
                            "true; false accumulates in the program's type, "
                            "as linalg defines it)"));
  binder.opt("kiln-pack-filters-min-bytes", packFiltersMinBytes,
             llvm::cl::desc("Lay out constant convolution filters of at "
                            "least this many bytes in contiguous panels of "
                            "output channels at compile time (default 1 "
                            "MiB; negative: never)"),
             llvm::cl::value_desc("bytes"));
  binder.opt("kiln-pack-weights-min-bytes", packWeightsMinBytes,
             llvm::cl::desc("Lay out constant weights of matmuls and other "
                            "contractions of at least this many bytes in "
                            "contiguous panels of columns, as wide as the "
                            "target's register tile, at compile time "
                            "(default 64 KiB; negative: never)"),
             llvm::cl::value_desc("bytes"));
  binder.opt("kiln-runtime-checks", runtimeChecks,
             llvm::cl::desc("Check at run time the sizes that must agree, "
                            "the indices of gathers and the divisors of "
                            "integer divisions that the compiler cannot "
                            "check; a call that fails one ends with an "
                            "error naming the op and the values (default "
                            "true; false trusts the inputs)"));
}
