//===- RuntimeImports.h - Calling the runtime from host code ----*- C++ -*-===//
//
// What the host lowerings share: calls of the runtime's imports through the
// kiln_host_context (kiln_module_abi.h), and the strings they pass.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_HOST_RUNTIMEIMPORTS_H
#define KILN_LIB_HOST_RUNTIMEIMPORTS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace kiln {

/// Calls the runtime's import `name` as `context->imports[i](runtime,
/// args...)`, adding `name` to the module's import list on first use.
/// `resultType` is null for an import that returns nothing.
mlir::Value callRuntimeImport(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::ModuleOp module, mlir::Value runtime,
                              llvm::StringRef name, mlir::Type resultType,
                              mlir::ValueRange args);

/// The index of host function `name` in the module's externs
/// (`kiln.externs`, what "kiln.call_extern" indexes), added on first use
/// with `signature`; an error on `op` when the module calls it with
/// another signature elsewhere.
mlir::FailureOr<int32_t> getHostExternIndex(mlir::ModuleOp module,
                                            mlir::Operation *op,
                                            llvm::StringRef name,
                                            llvm::StringRef signature);

/// "file:line:col" of `loc` (just "file" for line 0, which models'
/// nodes have), or "" when it has none.
std::string describeLocation(mlir::Location loc);

/// The host module's symbols as the lowering to LLVM looks them up and adds
/// to them: through symbol tables built once per pass, so that lowering a
/// program of N dispatches costs time in proportion to N (a lookup in the
/// module walks all of it). Only the symbols lowering adds (kernel
/// declarations, string constants) and executables are looked up here; the
/// host functions being converted are not.
class HostSymbols {
public:
  explicit HostSymbols(mlir::ModuleOp module);

  mlir::ModuleOp getModule() { return module; }
  /// For lookups of nested symbols (@executable::@export).
  mlir::SymbolTableCollection &getCollection() { return collection; }

  /// The declaration of external function `name` of `type`, added at the
  /// end of the module on first use.
  mlir::LLVM::LLVMFuncOp declareFunction(llvm::StringRef name,
                                         mlir::LLVM::LLVMFunctionType type);

  /// A pointer to a NUL-terminated copy of `text` in a module global
  /// `__kiln_string_N` (one global per distinct text).
  mlir::Value getStringPointer(mlir::OpBuilder &builder, mlir::Location loc,
                               llvm::StringRef text);

private:
  mlir::ModuleOp module;
  mlir::SymbolTableCollection collection;
  /// The string globals' names by their text, found in the module at the
  /// first use and kept up to date after it.
  std::optional<llvm::StringMap<std::string>> strings;
};

/// Adds the lowerings of kiln.alloc and kiln.dealloc to calls of the
/// runtime's "kiln.allocate" and "kiln.free" imports. `symbols` must outlive
/// the conversion.
void populateHostBufferToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns,
                                      HostSymbols &symbols);

} // namespace kiln

#endif // KILN_LIB_HOST_RUNTIMEIMPORTS_H
