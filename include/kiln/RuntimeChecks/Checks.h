//===- Checks.h - Building run-time checks ----------------------*- C++ -*-===//
//
// What Kiln's run-time checks and front ends share to make a `kiln.assert`:
// sizes as host values, overflow-checked products, and messages that name
// ops and values the way a user knows them (an ONNX node, a function input).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIMECHECKS_CHECKS_H
#define KILN_RUNTIMECHECKS_CHECKS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <string>

namespace kiln {

/// How a check's message names `op`: its name in the program when its
/// location carries one (an ONNX node: `'Add_3'`), else its op name
/// (`'linalg.generic'`).
std::string describeOp(mlir::Operation *op);

/// How a check's message names `value`, an operand of some op: a function
/// input by its name and index (`'y' (input 1)`, or `input 1` unnamed),
/// the result of a named op (`the result of 'Cast_2'`), or "" when there is
/// nothing better than the operand's position.
std::string describeValue(mlir::Value value);

/// Adds `kiln.assert %condition, message (values)` at the builder's point;
/// nothing when the condition is the constant true. `{N}` in `message`
/// stands for `values[N]`.
void createAssert(mlir::OpBuilder &builder, mlir::Location loc,
                  mlir::Value condition, llvm::StringRef message,
                  mlir::ValueRange values = {});

/// Size `dim` of the ranked tensor `tensor` as an index value: a constant
/// when static, else a `tensor.dim`.
mlir::Value createDimSize(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value tensor, int64_t dim);

/// The product of the index values `factors` and an i1 that is true when
/// it does not fit in a signed 64-bit integer (or a factor is negative).
std::pair<mlir::Value, mlir::Value>
createCheckedProduct(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::ValueRange factors);

/// Adds a check that every element of `values`, a ranked tensor of
/// integers (signed) or indices, lies in [`low`, `high`) (index values): a
/// linalg.generic that counts the elements outside and finds the smallest
/// and the largest, then a kiln.assert of `message`, in which {0} is that
/// count, {1} the smallest, {2} the largest, {3} `low` and {4} `high`.
void createRangeCheck(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value values, mlir::Value low, mlir::Value high,
                      llvm::StringRef message);

/// Makes the checks under `root` cheap and early: sizes of intermediate
/// values in terms of the sizes they come from (a `tensor.dim` of a
/// result would keep its producer from fusing), duplicates merged,
/// assertions that fold to true erased; then each `kiln.assert`, with the
/// side-effect-free ops of its block that compute its operands, moved as
/// early in that block as its operands allow, so that a check of a
/// function's input sizes runs when the call begins, before any dispatch.
mlir::LogicalResult simplifyAssertions(mlir::Operation *root);

} // namespace kiln

#endif // KILN_RUNTIMECHECKS_CHECKS_H
