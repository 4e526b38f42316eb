//===- ConfigSpace.h - The lowering configs llvm-cpu can take ---*- C++ -*-===//
//
// The space an autotuner searches for one dispatch root: the heuristic's
// config (the base) and axes that each set some tile sizes of it to one of
// a few values, chosen from the op's shape and the CPU (vector width,
// register count, cache sizes). A point of the space is one value per
// axis; points whose register tile needs more registers than the CPU has,
// whose cache tiles overflow the caches, or that code generation would
// refuse (verifyCPULoweringConfig) are not in it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_CPU_CONFIGSPACE_H
#define KILN_CODEGEN_CPU_CONFIGSPACE_H

#include "kiln/Codegen/CPU/CPUTargetInfo.h"
#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// The tile level an axis sets.
enum class TileLevel { Workgroup, Cache, Register };

/// One dimension of the space: the sizes it sets (a level and a loop
/// each; a register entry sets the vector size too) and the values it
/// takes. With `unitAxis`, a value is a multiple of that axis's value.
struct ConfigAxis {
  std::string name;
  std::vector<std::pair<TileLevel, unsigned>> sizes;
  std::vector<int64_t> values;
  std::optional<size_t> unitAxis;
};

class ConfigSpace {
public:
  /// The space of `root` for `cpu`: empty of axes (the base alone) for ops
  /// the tuner does not search (anything but contractions and
  /// convolutions), null when the heuristic has no config for it.
  static std::optional<ConfigSpace> get(mlir::Operation *root,
                                        const CPUTargetInfo &cpu);

  LoweringConfigAttr getBase() const { return base; }
  const std::vector<ConfigAxis> &getAxes() const { return axes; }
  /// The point that gives the base config.
  const std::vector<size_t> &getBasePoint() const { return basePoint; }

  /// The config at `point` (one value index per axis), or null when the
  /// point is outside the space (pruned or refused).
  LoweringConfigAttr getConfig(const std::vector<size_t> &point) const;

  /// Every config of the space, the base first, in the order of the points
  /// (the last axis fastest), at most `limit`.
  std::vector<LoweringConfigAttr> enumerate(size_t limit) const;

  /// The number of points before pruning.
  uint64_t getPointCount() const;

private:
  ConfigSpace(mlir::Operation *root, const CPUTargetInfo &cpu,
              LoweringConfigAttr base)
      : root(root), cpu(cpu), base(base) {}
  /// Adds an axis; its values are sorted, deduplicated and include the
  /// base's (read from the first size it sets). Returns its index, or
  /// none when the base does not set that size (or, in units, is no whole
  /// number of them).
  std::optional<size_t> addAxis(ConfigAxis axis);
  /// Registers and cache bytes `config` needs within the CPU's.
  bool fits(LoweringConfigAttr config) const;

  mlir::Operation *root;
  CPUTargetInfo cpu;
  LoweringConfigAttr base;
  std::vector<ConfigAxis> axes;
  std::vector<size_t> basePoint;
  /// For contractions and convolutions: the loops whose register tile
  /// holds accumulators (rows, and the vectorized loop), and the k loop
  /// and n loop of a contraction (-1 when none).
  int rowLoop = -1, vectorLoop = -1, kLoop = -1, columnLoop = -1;
  unsigned elementBytes = 4;
  std::vector<int64_t> loopSizes;
};

/// The heuristic config of `root` (what kiln-cpu-select-lowering-config
/// sets when no spec did), or null.
LoweringConfigAttr selectCPULoweringConfig(mlir::Operation *root,
                                           const CPUTargetInfo &cpu);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_CONFIGSPACE_H
