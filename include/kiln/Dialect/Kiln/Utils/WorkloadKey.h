//===- WorkloadKey.h - What a dispatch's root computes, as a key -*- C++
//-*-===//
//
// The key an autotuner files its measurements of a root op under, and that
// the specs it writes match (transform.kiln.match.workload): a hash of the
// op's name, operand and result types (shapes and element types), its
// inherent attributes (indexing maps, iterator types, strides, ...) and its
// body, printed in MLIR's generic form without locations or Kiln's
// discardable attributes. Ops with equal keys compute the same thing on
// the same shapes, wherever they are.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_UTILS_WORKLOADKEY_H
#define KILN_DIALECT_KILN_UTILS_WORKLOADKEY_H

#include "mlir/IR/Operation.h"

#include <string>

namespace kiln {

/// The version of the key's recipe, its prefix: "kw1-" and 16 hex digits.
constexpr const char *kWorkloadKeyPrefix = "kw1-";

/// The workload key of `root`.
std::string computeWorkloadKey(mlir::Operation *root);

/// The canonical text the key hashes (for tests and for debugging keys).
std::string printWorkloadKeyText(mlir::Operation *root);

} // namespace kiln

#endif // KILN_DIALECT_KILN_UTILS_WORKLOADKEY_H
