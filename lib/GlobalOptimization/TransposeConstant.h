//===- TransposeConstant.h - Dense constants in another layout --*- C++ -*-===//
//
// Layout changes of dense constants made at compile time, for the passes
// that give a constant operand the layout its op reads best, and of any
// tensor by a linalg.transpose.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_GLOBALOPTIMIZATION_TRANSPOSECONSTANT_H
#define KILN_LIB_GLOBALOPTIMIZATION_TRANSPOSECONSTANT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace kiln {

/// The elements of a constant as a DenseElementsAttr: `attr` itself, or
/// the data of a dense_resource blob (as importers keep large weights);
/// null for anything else, or a blob whose size does not match its type.
mlir::DenseElementsAttr getDenseElements(mlir::Attribute attr);

/// The constant `attr` transposed by `perm` (result dim i is `attr`'s dim
/// perm[i]), or null when it is not a dense constant of whole bytes.
mlir::DenseElementsAttr transposeConstant(mlir::DenseElementsAttr attr,
                                          llvm::ArrayRef<int64_t> perm);

/// The constant `attr` with its dim `dim` extended to `size` by zeros, or
/// null when it is not a dense constant of whole bytes.
mlir::DenseElementsAttr padConstant(mlir::DenseElementsAttr attr, int64_t dim,
                                    int64_t size);

/// `value` transposed by `perm` (result dim i is `value`'s dim perm[i])
/// into an empty tensor, by a linalg.transpose built at `builder`'s
/// insertion point.
mlir::Value createTranspose(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Value value, llvm::ArrayRef<int64_t> perm);

} // namespace kiln

#endif // KILN_LIB_GLOBALOPTIMIZATION_TRANSPOSECONSTANT_H
