//===- CPUPipelines.h - The llvm-cpu backend's codegen pipelines -*- C++
//-*-===//
//
// The pipelines a lowering config of an llvm-cpu variant may name: what the
// backend declares (TargetBackend::getPipelines), what the heuristics set
// and what codegen dispatches on, by enum rather than by name.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_CPU_CPUPIPELINES_H
#define KILN_CODEGEN_CPU_CPUPIPELINES_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "kiln/Target/TargetBackend.h"

#include <optional>

namespace kiln {

enum class CPUPipeline {
  /// Matmuls and batch matmuls: register tiles of rows x vectors, B packed
  /// into panels.
  Contraction,
  /// Convolutions and pooling: a register tile of one output row.
  Convolution,
  /// Elementwise ops and copies: vectors, in blocks for transposes.
  Elementwise,
  /// Reductions, row softmax included.
  Reduction,
  /// Anything else: tiled to workgroups, then loops.
  Default,
};

/// The names and descriptions of every CPUPipeline, in enum order.
llvm::ArrayRef<PipelineInfo> getCPUPipelines();

/// The name a lowering config spells `pipeline` by ("cpu-contraction", ...).
llvm::StringRef getCPUPipelineName(CPUPipeline pipeline);

/// The pipeline `config` names, or nothing for a name llvm-cpu does not
/// have (or no config).
std::optional<CPUPipeline> getCPUPipeline(LoweringConfigAttr config);

} // namespace kiln

#endif // KILN_CODEGEN_CPU_CPUPIPELINES_H
