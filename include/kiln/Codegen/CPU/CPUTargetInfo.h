//===- CPUTargetInfo.h - What codegen needs to know of a CPU ----*- C++ -*-===//
//
// The properties of a #kiln.target<"llvm-cpu", ...> that configuration
// heuristics use.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_CPU_CPUTARGETINFO_H
#define KILN_CODEGEN_CPU_CPUTARGETINFO_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"

#include <cstdint>

namespace kiln {

struct CPUTargetInfo {
  /// Width of the widest vector registers, in bits (128, 256 or 512).
  int64_t vectorBits = 128;
  /// Number of vector registers (16, or 32 with AVX-512).
  int64_t vectorRegisters = 16;
  /// Per-core data cache sizes, in bytes.
  int64_t l1Bytes = 32 * 1024;
  int64_t l2Bytes = 256 * 1024;
  bool hasFMA = false;

  /// Elements of `bitWidth` bits one vector register holds.
  int64_t lanes(unsigned bitWidth) const {
    return vectorBits / std::max<int64_t>(8, bitWidth);
  }
};

/// Reads the CPU properties from `target`: features decide vector width and
/// register count, a table of known CPUs the cache sizes.
CPUTargetInfo getCPUTargetInfo(TargetAttr target);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_CPUTARGETINFO_H
