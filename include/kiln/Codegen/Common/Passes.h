//===- Passes.h - Target-independent codegen passes -------------*- C++ -*-===//
//
// Declares the kernel passes every backend can use.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_COMMON_PASSES_H
#define KILN_CODEGEN_COMMON_PASSES_H

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL
#include "kiln/Codegen/Common/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "kiln/Codegen/Common/Passes.h.inc"

} // namespace kiln

#endif // KILN_CODEGEN_COMMON_PASSES_H
