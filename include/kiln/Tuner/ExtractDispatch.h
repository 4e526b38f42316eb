//===- ExtractDispatch.h - A program's dispatches, stand-alone ---*- C++
//-*-===//
//
// What the autotuner reads from a program compiled to
// executable-configurations (or to any phase from dispatch-formation on):
// each executable's root op, its workload key and configuration, and a
// stand-alone program that computes just that dispatch, which the tuner
// compiles with each candidate config and times on random inputs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNER_EXTRACTDISPATCH_H
#define KILN_TUNER_EXTRACTDISPATCH_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace kiln {

struct ProgramDispatch {
  /// The executable, such as "main_dispatch_3".
  std::string executable;
  /// Its root op, in the kernel of its first variant (null when none).
  mlir::Operation *root = nullptr;
  /// summarizeRootOp of the root, and its workload key.
  std::string summary, key;
  /// The root's lowering config, when configured, and what set it.
  LoweringConfigAttr config;
  std::string configuredBy;
  /// A program of one public function, @main, whose arguments are the
  /// dispatch's inputs and results its outputs: the kernel's body on
  /// tensors, without configurations. Null when the dispatch cannot stand
  /// alone, and `whyNot` says why.
  mlir::OwningOpRef<mlir::ModuleOp> standalone;
  std::string whyNot;
};

/// The dispatches of `program`, in the order of its executables.
std::vector<ProgramDispatch> collectDispatches(mlir::ModuleOp program);

} // namespace kiln

#endif // KILN_TUNER_EXTRACTDISPATCH_H
