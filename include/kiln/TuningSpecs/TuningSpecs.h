//===- TuningSpecs.h - Tuning spec files and the linked library -*- C++ -*-===//
//
// A tuning spec is a transform-dialect module in Kiln's spec format:
//
//   module attributes {transform.with_named_sequence,
//                      kiln.tuning_spec_version = 1 : i64} {
//     ... matchers and actions (transform.named_sequence) ...
//     transform.named_sequence @entry(%root: !transform.any_op
//         {transform.consumed}) -> !transform.any_op
//         attributes {kiln.tuning_spec_entrypoint} { ... }
//   }
//
// Specs come from the defaults embedded in the compiler, from plugins and
// from the user; linking puts them, in precedence order, into one library
// with one entry point that runs each spec's entry in turn. The action
// that sets a config keeps the first one set, so the first spec to
// configure an op wins.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TUNINGSPECS_TUNINGSPECS_H
#define KILN_TUNINGSPECS_TUNINGSPECS_H

#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace kiln {

/// The spec format version this Kiln reads and writes.
constexpr int64_t kTuningSpecVersion = 1;

/// Checks that `spec` is a tuning spec Kiln can use: the format version, one
/// named sequence tagged kiln.tuning_spec_entrypoint with the signature
/// `(!transform.any_op {transform.consumed}) -> !transform.any_op`, and a
/// body. Errors go to the context's diagnostics at the spec's locations.
/// Returns the entry point.
mlir::FailureOr<mlir::transform::NamedSequenceOp>
verifyTuningSpec(mlir::ModuleOp spec);

/// Parses a spec from a file (text or bytecode) and verifies it; errors
/// name the file.
mlir::OwningOpRef<mlir::ModuleOp> loadTuningSpec(mlir::MLIRContext *context,
                                                 llvm::StringRef path);

/// Parses a spec from memory (`name` is what locations and errors say).
mlir::OwningOpRef<mlir::ModuleOp> loadTuningSpec(mlir::MLIRContext *context,
                                                 llvm::StringRef name,
                                                 llvm::StringRef contents);

/// One input of the linker: a verified spec and what to call it in the
/// explanation ("user spec a.mlir", "default spec znver5", ...).
struct TuningSpecInput {
  std::string source;
  mlir::OwningOpRef<mlir::ModuleOp> spec;
};

/// The name of the linked library's entry point.
llvm::StringRef getLinkedEntryPointName();

/// Links `specs`, highest precedence first, into one spec: their symbols
/// (renamed where they clash, uses updated), each named sequence tagged
/// with its spec's source, and an entry point that includes each spec's
/// entry in order. The inputs are consumed.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
linkTuningSpecs(mlir::MLIRContext *context, std::vector<TuningSpecInput> specs);

} // namespace kiln

#endif // KILN_TUNINGSPECS_TUNINGSPECS_H
