//===- MaterializeSplatConstants.cpp - Large splats become fills ----------===//
//
// A splat tensor constant above a size limit becomes a linalg.fill of a
// tensor.empty, so that no pass after this one writes its elements out.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_MATERIALIZESPLATCONSTANTSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// The size of `type`'s elements in bytes (sub-byte elements take a byte,
/// as in memory), or nullopt past 2^63.
static std::optional<int64_t> getByteSize(RankedTensorType type) {
  int64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  for (int64_t size : type.getShape())
    if (llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  return bytes;
}

namespace {
struct MaterializeSplatConstantsPass
    : public kiln::impl::MaterializeSplatConstantsPassBase<
          MaterializeSplatConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<arith::ConstantOp> splats;
    getOperation()->walk([&](arith::ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      auto value = dyn_cast<SplatElementsAttr>(op.getValue());
      if (!type || !value || !type.hasStaticShape() ||
          !type.getElementType().isIntOrIndexOrFloat())
        return;
      std::optional<int64_t> bytes = getByteSize(type);
      if (!bytes || *bytes > maxBytes)
        splats.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (arith::ConstantOp op : splats) {
      auto type = cast<RankedTensorType>(op.getType());
      auto value = cast<SplatElementsAttr>(op.getValue());
      rewriter.setInsertionPoint(op);
      Location loc = op.getLoc();
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(value.getSplatValue<Attribute>()));
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                  type.getElementType(), type.getEncoding());
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, scalar, empty);
    }
  }
};
} // namespace
