//===- LowerMinMax.cpp - Float minima and maxima to LLVM intrinsics -------===//
//
// x86's maxps/minps give their second operand when either is NaN; with
// signed zeros counted equal, LLVM lowers llvm.maximum to one of them and a
// compare and blend for the NaN it drops, instead of the four-instruction
// mask sequence that arith-expand's compares and selects become.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/Passes.h"
#include "mlir/Conversion/ArithCommon/AttrToLLVMConverter.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_CPULOWERMINMAXPASS
#include "kiln/Codegen/CPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// Whether LLVM has `type`: f16, f32, f64 or a 1-D vector of them. Not
/// bf16: on CPUs without its conversions, kiln-expand-small-floats does its
/// arithmetic in f32, which it cannot do to an LLVM intrinsic (LLVM would
/// round through `__truncsfbf2`, which no module links).
bool hasLLVMType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.getRank() != 1 || vector.isScalable())
      return false;
    type = vector.getElementType();
  }
  return type.isF16() || type.isF32() || type.isF64();
}

template <typename ArithOp, typename LLVMOp>
struct LowerMinMax : OpRewritePattern<ArithOp> {
  using OpRewritePattern<ArithOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ArithOp op,
                                PatternRewriter &rewriter) const override {
    if (!hasLLVMType(op.getType()))
      return rewriter.notifyMatchFailure(op, "left to arith-expand");
    LLVM::FastmathFlags flags =
        arith::convertArithFastMathFlagsToLLVM(op.getFastmath()) |
        LLVM::FastmathFlags::nsz;
    rewriter.replaceOpWithNewOp<LLVMOp>(op, op.getLhs(), op.getRhs(), flags);
    return success();
  }
};

struct CPULowerMinMaxPass
    : public kiln::impl::CPULowerMinMaxPassBase<CPULowerMinMaxPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerMinMax<arith::MaximumFOp, LLVM::MaximumOp>,
                 LowerMinMax<arith::MinimumFOp, LLVM::MinimumOp>,
                 LowerMinMax<arith::MaxNumFOp, LLVM::MaxNumOp>,
                 LowerMinMax<arith::MinNumFOp, LLVM::MinNumOp>>(&getContext());
    // Each op changes once; folding is left to the pipeline's own passes.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
