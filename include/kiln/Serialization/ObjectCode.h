//===- ObjectCode.h - LLVM dialect to x86-64 object code --------*- C++ -*-===//
//
// What serialization does to each executable and to the host code: translate
// a module in the LLVM dialect to LLVM IR, optimize it for the target CPU,
// emit a relocatable object in memory, and keep what describes each
// executable's object beside it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_SERIALIZATION_OBJECTCODE_H
#define KILN_SERIALIZATION_OBJECTCODE_H

#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln {

/// What a module holds, which decides how LLVM optimizes it.
enum class CodeKind {
  /// An executable's kernels: LLVM's whole -O3 pipeline.
  Kernels,
  /// Host code: straight-line glue that fills arguments and calls the
  /// runtime, one call per dispatch. Each function is simplified as at -O2
  /// (SROA, combining, GVN, loop passes), without LLVM's interprocedural
  /// passes: their time grows faster than the program (called-value
  /// propagation took 18 of 27 s on a 1600-dispatch host function) and
  /// they have nothing to gain in code that only calls the runtime.
  Host,
};

/// The relocatable ELF object of `module` (every op in the LLVM dialect),
/// optimized as `kind` says for `target`'s CPU and features. `name` names
/// the module in errors. Thread-safe: each call has its own LLVM context.
llvm::Expected<std::string> emitObjectCode(mlir::ModuleOp module,
                                           TargetAttr target,
                                           llvm::StringRef name, CodeKind kind);

/// The object of a variant whose inner module is in the LLVM dialect (after
/// codegen, or from a preprocessing tool): each export's kernel renamed to
/// its symbol in `symbols` and hidden from the module's users, everything
/// else the module defines made internal to the object, then emitObjectCode
/// for the variant's target. llvm-cpu serializes with it, and so may any
/// backend whose codegen ends in the LLVM dialect. Renames in place.
llvm::Expected<std::string> serializeLLVMVariant(ExecutableVariantOp variant,
                                                 const KernelSymbols &symbols);

/// An executable's object code as an attribute (a dense resource of bytes,
/// not text): what `kiln.object_code` holds.
mlir::DenseResourceElementsAttr makeObjectCodeAttr(mlir::MLIRContext *context,
                                                   llvm::StringRef name,
                                                   llvm::StringRef bytes);

/// The bytes of an attribute made by makeObjectCodeAttr, or nothing for
/// another attribute or one whose data is missing.
std::optional<llvm::StringRef> getObjectCodeBytes(mlir::Attribute attr);

/// The symbol each export's kernel of `variant` gets in the module.
KernelSymbols getKernelSymbols(ExecutableOp executable,
                               ExecutableVariantOp variant);

/// An executable's object and what host code needs to know about its
/// kernels, as the object cache keeps it.
struct CachedObject {
  /// Workgroup scratch bytes per export, for exports that need some.
  std::vector<std::pair<std::string, uint64_t>> scratchBytes;
  /// The variant's exports after codegen (their workgroup counts
  /// computed), in MLIR's generic form.
  std::string exports;
  std::string object;

  std::string serialize() const;
  /// Nothing when `text` is not what serialize() writes.
  static std::optional<CachedObject> deserialize(llvm::StringRef text);
};

} // namespace kiln

#endif // KILN_SERIALIZATION_OBJECTCODE_H
