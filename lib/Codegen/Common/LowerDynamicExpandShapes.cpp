//===- LowerDynamicExpandShapes.cpp - expand_shape MLIR 22.1 cannot -------===//
//
// Lowers memref.expand_shape ops that split a dimension into more than one
// dynamic size to a reinterpret_cast of the source's strided metadata,
// which upstream's expand-strided-metadata crashes on in MLIR 22.1.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_LOWERDYNAMICEXPANDSHAPESPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// Whether some group of `expand` has more than one dynamic size.
static bool hasGroupOfDynamicSizes(memref::ExpandShapeOp expand) {
  MemRefType type = expand.getResultType();
  return llvm::any_of(expand.getReassociationIndices(), [&](auto group) {
    return llvm::count_if(group,
                          [&](int64_t d) { return type.isDynamicDim(d); }) > 1;
  });
}

static void lower(RewriterBase &rewriter, memref::ExpandShapeOp expand) {
  Location loc = expand.getLoc();
  rewriter.setInsertionPoint(expand);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, expand.getSrc());
  SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(sizes.size());
  auto value = [&](OpFoldResult ofr) -> Value {
    if (auto attr = dyn_cast<Attribute>(ofr))
      return arith::ConstantIndexOp::create(rewriter, loc,
                                            cast<IntegerAttr>(attr).getInt());
    return cast<Value>(ofr);
  };
  for (auto [source, group] :
       llvm::enumerate(expand.getReassociationIndices())) {
    Value stride = metadata.getStrides()[source];
    for (int64_t d : llvm::reverse(group)) {
      strides[d] = stride;
      stride = arith::MulIOp::create(rewriter, loc, stride, value(sizes[d]));
    }
  }
  // Where the result's type states an offset or a stride, the cast must
  // state the same (it is that value, the type says so).
  MemRefType type = expand.getResultType();
  auto [staticStrides, staticOffset] = type.getStridesAndOffset();
  OpFoldResult offset = metadata.getOffset();
  if (!ShapedType::isDynamic(staticOffset))
    offset = rewriter.getIndexAttr(staticOffset);
  for (auto [stride, known] : llvm::zip(strides, staticStrides))
    if (!ShapedType::isDynamic(known))
      stride = rewriter.getIndexAttr(known);
  for (auto [size, known] : llvm::zip(sizes, type.getShape()))
    if (!ShapedType::isDynamic(known))
      size = rewriter.getIndexAttr(known);
  rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
      expand, type, metadata.getBaseBuffer(), offset, sizes, strides);
}

namespace {
struct LowerDynamicExpandShapesPass
    : public kiln::impl::LowerDynamicExpandShapesPassBase<
          LowerDynamicExpandShapesPass> {
  void runOnOperation() override {
    SmallVector<memref::ExpandShapeOp> expands;
    getOperation().walk([&](memref::ExpandShapeOp expand) {
      if (hasGroupOfDynamicSizes(expand))
        expands.push_back(expand);
    });
    IRRewriter rewriter(&getContext());
    for (memref::ExpandShapeOp expand : expands)
      lower(rewriter, expand);
  }
};
} // namespace
