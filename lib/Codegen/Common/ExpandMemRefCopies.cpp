//===- ExpandMemRefCopies.cpp - Strided copies into loops ------------------===//
//
// Rewrites memref.copy ops that LLVM lowering would turn into a call to a
// helper library into loops of loads and stores.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
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
         (type.hasStaticShape() && memref::isStaticShapeAndContiguousRowMajor(type));
}

static void expandCopy(RewriterBase &rewriter, memref::CopyOp copy) {
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
  scf::buildLoopNest(rewriter, loc, lbs, ubs, steps,
                     [&](OpBuilder &b, Location loc, ValueRange ivs) {
                       Value value = memref::LoadOp::create(b, loc, source, ivs);
                       memref::StoreOp::create(b, loc, value, target, ivs);
                     });
  rewriter.eraseOp(copy);
}

namespace {
struct ExpandMemRefCopiesPass
    : public kiln::impl::ExpandMemRefCopiesPassBase<ExpandMemRefCopiesPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (source && target &&
          (!lowersToMemcpy(source) || !lowersToMemcpy(target)))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies)
      expandCopy(rewriter, copy);
  }
};
} // namespace
