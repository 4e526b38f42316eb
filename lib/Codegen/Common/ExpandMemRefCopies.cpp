//===- ExpandMemRefCopies.cpp - Strided copies into loops
//------------------===//
//
// Rewrites memref.copy ops that LLVM lowering would turn into a call to a
// helper library into loops of loads and stores.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_EXPANDMEMREFCOPIESPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// What LLVM lowering copies with a memcpy: identity layouts, or layouts
/// whose strides it can prove dense.
static bool lowersToMemcpy(MemRefType type) {
  return type.getLayout().isIdentity() ||
         (type.hasStaticShape() &&
          memref::isStaticShapeAndContiguousRowMajor(type));
}

/// Rows longer than this many elements are copied in pieces by a loop.
static constexpr int64_t kMaxRowVectorElements = 256;

/// The vector one row of `copy` moves as, when its innermost dim has a
/// static length and unit stride on both sides.
static std::optional<VectorType> getRowVectorType(memref::CopyOp copy) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  if (source.getRank() == 0 || !source.getElementType().isIntOrFloat() ||
      source.getElementType().getIntOrFloatBitWidth() < 8)
    return std::nullopt;
  int64_t length = source.getShape().back();
  if (ShapedType::isDynamic(length) || length <= 0 ||
      length > kMaxRowVectorElements)
    return std::nullopt;
  for (MemRefType type : {source, target}) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        strides.back() != 1)
      return std::nullopt;
  }
  return VectorType::get({length}, source.getElementType());
}

static void expandCopy(RewriterBase &rewriter, memref::CopyOp copy,
                       bool vectorRows) {
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  Value source = copy.getSource(), target = copy.getTarget();
  auto type = cast<MemRefType>(source.getType());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    lbs.push_back(zero);
    ubs.push_back(memref::DimOp::create(rewriter, loc, source, dim));
    steps.push_back(one);
  }
  // Rows that are contiguous on both sides and of a static length move as
  // one vector each (LLVM splits it into registers); others element by
  // element.
  std::optional<VectorType> rowType =
      vectorRows ? getRowVectorType(copy) : std::nullopt;
  if (rowType) {
    ubs.pop_back();
    lbs.pop_back();
    steps.pop_back();
  }
  scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        if (!rowType) {
          Value value = memref::LoadOp::create(b, loc, source, ivs);
          memref::StoreOp::create(b, loc, value, target, ivs);
          return;
        }
        SmallVector<Value> indices(ivs.begin(), ivs.end());
        indices.push_back(zero);
        Value row = vector::LoadOp::create(b, loc, *rowType, source, indices);
        vector::StoreOp::create(b, loc, row, target, indices);
      });
  rewriter.eraseOp(copy);
}

namespace {
struct ExpandMemRefCopiesPass
    : public kiln::impl::ExpandMemRefCopiesPassBase<ExpandMemRefCopiesPass> {
  using ExpandMemRefCopiesPassBase::ExpandMemRefCopiesPassBase;
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target)
        return;
      // Small static copies too: a memcpy of a size LLVM does not see as
      // constant is a call, where a vector move or two would do.
      bool small = vectorRows && source.hasStaticShape() &&
                   source.getNumElements() <= kMaxRowVectorElements &&
                   getRowVectorType(copy);
      if (small || !lowersToMemcpy(source) || !lowersToMemcpy(target))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      expandCopy(rewriter, copy, vectorRows);
  }
};
} // namespace
