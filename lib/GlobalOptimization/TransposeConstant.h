//===- TransposeConstant.h - Dense constants in another layout --*- C++ -*-===//
//
// Layout changes of dense constants made at compile time, for the passes
// that give a constant operand the layout its op reads best.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_LIB_GLOBALOPTIMIZATION_TRANSPOSECONSTANT_H
#define KILN_LIB_GLOBALOPTIMIZATION_TRANSPOSECONSTANT_H

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

} // namespace kiln

#endif // KILN_LIB_GLOBALOPTIMIZATION_TRANSPOSECONSTANT_H
