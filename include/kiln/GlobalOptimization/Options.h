//===- Options.h - Options of the global optimization phase -----*- C++ -*-===//
//
// What shapes the global optimization phase, apart from its passes' own
// declarations (kept light for the pipeline's header).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_GLOBALOPTIMIZATION_OPTIONS_H
#define KILN_GLOBALOPTIMIZATION_OPTIONS_H

#include <cstdint>

namespace kiln {

class OptionsBinder;

/// Options of the global optimization phase.
struct GlobalOptimizationOptions {
  /// Sums and products of f16, bf16 and 8-bit floats accumulate in f32
  /// (--kiln-accumulate-narrow-floats-in-f32); false keeps the accumulation in
  /// the type the program wrote, as the linalg ops define it.
  bool widenNarrowAccumulators = true;
  /// Constant convolution filters of at least this many bytes are laid out
  /// in panels at compile time (--kiln-pack-filters-min-bytes,
  /// kiln-pack-convolution-filters); negative: none.
  int64_t packFiltersMinBytes = 1 << 20;
  /// Constant weights of contractions of at least this many bytes are laid
  /// out in panels of columns at compile time (--kiln-pack-weights-min-bytes,
  /// kiln-pack-contraction-weights); negative: none.
  int64_t packWeightsMinBytes = 64 << 10;
  /// Sizes, indices and divisors the compiler cannot check are checked when
  /// the program runs (--kiln-runtime-checks; the kiln-check-* and
  /// kiln-guard-* passes). False leaves them to the program: wrong sizes
  /// then read and write past buffers.
  bool runtimeChecks = true;

  /// Binds the flags above (Options.cpp).
  void bindOptions(OptionsBinder &binder);
};

} // namespace kiln

#endif // KILN_GLOBALOPTIMIZATION_OPTIONS_H
