//===- WeightPanels.h - Constant weights laid out in panels -----*- C++ -*-===//
//
// What the passes that lay out constant weights in panels for the targets'
// register tiles share: how wide a panel is, and the reshapes of the
// result between its own layout and the panels' (innermost dim N as
// N/P x P).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_GLOBALOPTIMIZATION_WEIGHTPANELS_H
#define KILN_LIB_GLOBALOPTIMIZATION_WEIGHTPANELS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace kiln {

/// `panelBytes` when positive, 0 (no panels) when negative; for 0, the
/// width every target of `targets` (llvm-cpu when empty), `cpus` (host
/// when empty) and `cpuFeatures` asks for, 0 when they ask for none or
/// different ones. Target options that do not resolve give 0: the
/// executable-sources phase reports what is wrong with them.
int64_t resolveWeightPanelBytes(mlir::MLIRContext *context, int64_t panelBytes,
                                llvm::ArrayRef<std::string> targets,
                                llvm::ArrayRef<std::string> cpus,
                                llvm::StringRef cpuFeatures);

/// The accumulator `value`, whose innermost dim holds `columns` (its type
/// may leave them dynamic), as ... x `paddedColumns`/P x P. A fill of an
/// empty tensor is made again in that shape; padding (`paddedColumns` >
/// `columns`) needs one.
mlir::Value expandToPanels(mlir::RewriterBase &rewriter, mlir::Location loc,
                           mlir::Value value, int64_t columns,
                           int64_t paddedColumns, int64_t panel);

/// The result `value` of an op on panels (... x N'/P x P) as `type`: its
/// last two dims collapsed, the columns past `columns` sliced off, cast
/// where `type` leaves dims dynamic.
mlir::Value collapsePanels(mlir::RewriterBase &rewriter, mlir::Location loc,
                           mlir::Value value, int64_t columns, mlir::Type type);

} // namespace kiln

#endif // KILN_LIB_GLOBALOPTIMIZATION_WEIGHTPANELS_H
