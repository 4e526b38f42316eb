//===- InitAll.h - Register everything Kiln's tools use ---------*- C++ -*-===//
//
// One place that registers dialects, passes, pipelines, target backends and
// input conversions, so every tool sees the same compiler.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DRIVER_INITALL_H
#define KILN_DRIVER_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln {

/// Adds every upstream dialect and extension plus the kiln dialect.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers Kiln's passes and phase pipelines with MLIR's pass registry.
void registerKilnPasses();

/// Registers Kiln's target backends and input conversions. Idempotent.
void registerKilnComponents();

} // namespace kiln

#endif // KILN_DRIVER_INITALL_H
