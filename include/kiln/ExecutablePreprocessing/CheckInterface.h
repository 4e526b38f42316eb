//===- CheckInterface.h - Replacing an executable, checked -----*- C++ -*-===//
//
// A preprocessing tool or a substitute file may rewrite an executable in any
// way, but the host code that dispatches it stays as it was: the same
// exports with the same workloads, the same buffers bound in the same
// order with the same shapes, the same scalar constants. A replacement that
// reads a binding the host does not pass, assumes a larger shape, or writes
// into an input would corrupt memory at run time; this check turns that
// into a compile error.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_EXECUTABLEPREPROCESSING_CHECKINTERFACE_H
#define KILN_EXECUTABLEPREPROCESSING_CHECKINTERFACE_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace kiln {

/// Fails, with the reason in `why`, when `replacement` cannot stand in for
/// the executable of its name that the kiln.dispatch ops of `program` call.
/// For each export a dispatch calls, every variant of `replacement` must
/// export it with a workload of the dispatch's size; where the variant is
/// not compiled to LLVM yet, the export's function may only use bindings
/// and constants the dispatch passes, with its element types and ranks and
/// no dimension the dispatch leaves dynamic or sizes otherwise, and must
/// not write an input binding (each is `readonly`).
mlir::LogicalResult checkReplacementInterface(mlir::ModuleOp program,
                                              ExecutableOp replacement,
                                              std::string &why);

/// Returns the one kiln.executable of `module` (parsed from a tool's output
/// or a substitute file) when it can stand in for the executable called
/// `name`: the module holds exactly that op, of that name, and every object
/// it attaches can be linked. Fails with the reason in `why`.
mlir::FailureOr<ExecutableOp> getReplacementExecutable(mlir::ModuleOp module,
                                                       llvm::StringRef name,
                                                       std::string &why);

/// Parses `text`, what a preprocessing command printed (`source` names it
/// in locations, such as "<tool output>"), as a replacement of executable
/// `name` in `context`: within the nesting limit, valid MLIR, and
/// getReplacementExecutable's rules. Null on failure, with every error
/// (file:line:col: message) in `errors`.
mlir::OwningOpRef<mlir::ModuleOp>
parseReplacementExecutable(mlir::MLIRContext &context, llvm::StringRef name,
                           llvm::StringRef text, llvm::StringRef source,
                           std::string &errors);

/// Puts `replacement` in place of `original` (the executable of the same
/// name in a program) once checkReplacementInterface accepts it; otherwise
/// leaves both as they are and fails with the reason in `why`.
mlir::LogicalResult replaceExecutable(ExecutableOp original,
                                      ExecutableOp replacement,
                                      std::string &why);

} // namespace kiln

#endif // KILN_EXECUTABLEPREPROCESSING_CHECKINTERFACE_H
