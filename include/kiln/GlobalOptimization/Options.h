//===- Options.h - Options of the global optimization phase -----*- C++ -*-===//
//
// What shapes the global optimization phase, apart from its passes' own
// declarations (kept light for the pipeline's header).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_GLOBALOPTIMIZATION_OPTIONS_H
#define KILN_GLOBALOPTIMIZATION_OPTIONS_H

namespace kiln {

/// Options of the global optimization phase.
struct GlobalOptimizationOptions {
  /// Sums and products of f16, bf16 and 8-bit floats accumulate in f32
  /// (--kiln-accumulate-narrow-floats-in-f32); false keeps the accumulation in
  /// the type the program wrote, as the linalg ops define it.
  bool widenNarrowAccumulators = true;
};

} // namespace kiln

#endif // KILN_GLOBALOPTIMIZATION_OPTIONS_H
