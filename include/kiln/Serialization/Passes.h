//===- Passes.h - Serialization ---------------------------------*- C++ -*-===//
//
// Declares the serialization phase and the writer of shared objects.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SERIALIZATION_PASSES_H
#define KILN_SERIALIZATION_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Serialization/Options.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Error.h"

namespace kiln {
class OutputFile;

#define GEN_PASS_DECL
#include "kiln/Serialization/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Serialization/Passes.h.inc"

/// Adds the serialization phase's passes to a module pass manager.
void populateSerializationPasses(mlir::OpPassManager &pm,
                                 const SerializationOptions &options);

/// Adds, when there is an object cache, the pass that takes unchanged
/// executables' object code from it (the start of executable-codegen).
void populateObjectCacheLookup(mlir::OpPassManager &pm,
                               const SerializationOptions &options);

/// Translates `module` (linked, all in the LLVM dialect) to LLVM IR,
/// optimizes it at -O3 for the CPU of its `kiln.target`, and links its
/// object code with the executables' (`kiln.object_code`) and the object
/// files listed in its `kiln.objects` into a shared object with ld.lld, in
/// a scratch folder; a symbol none of them defines fails the link. The result
/// is written to `output` and committed only when everything succeeded.
llvm::Error writeSharedObject(mlir::ModuleOp module, OutputFile &output);

/// What writeSharedObject writes, in memory: the shared object and the
/// trailer of kiln_module_abi.h. `name` names the module in errors.
llvm::Expected<std::string> buildSharedObject(mlir::ModuleOp module,
                                              llvm::StringRef name);

} // namespace kiln

#endif // KILN_SERIALIZATION_PASSES_H
