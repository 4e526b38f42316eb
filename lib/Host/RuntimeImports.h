//===- RuntimeImports.h - Calling the runtime from host code ----*- C++ -*-===//
//
// What the host lowerings share: calls of the runtime's imports through the
// kiln_host_context (kiln_module_abi.h), and the strings they pass.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_HOST_RUNTIMEIMPORTS_H
#define KILN_LIB_HOST_RUNTIMEIMPORTS_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace kiln {

/// Calls the runtime's import `name` as `context->imports[i](runtime,
/// args...)`, adding `name` to the module's import list on first use.
/// `resultType` is null for an import that returns nothing.
mlir::Value callRuntimeImport(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::ModuleOp module, mlir::Value runtime,
                              llvm::StringRef name, mlir::Type resultType,
                              mlir::ValueRange args);

/// "file:line:col" of `loc`, or "" when it has none.
std::string describeLocation(mlir::Location loc);

/// A pointer to a NUL-terminated copy of `text` in a module global (one
/// global per distinct text).
mlir::Value getStringPointer(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::ModuleOp module, llvm::StringRef text);

/// Adds the lowerings of kiln.alloc and kiln.dealloc to calls of the
/// runtime's "kiln.allocate" and "kiln.free" imports.
void populateHostBufferToLLVMPatterns(mlir::LLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);

} // namespace kiln

#endif // KILN_LIB_HOST_RUNTIMEIMPORTS_H
