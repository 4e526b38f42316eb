//===- LowerVectors.cpp - n-D vector ops to 1-D ones ----------------------===//
//
// Lowers the vector ops vectorization produced to the one-dimensional ops
// that LLVM lowering maps onto x86 vector instructions.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/CPU/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_CPULOWERVECTORSPASS
#include "kiln/Codegen/CPU/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
struct CPULowerVectorsPass
    : public kiln::impl::CPULowerVectorsPassBase<CPULowerVectorsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    Operation *root = getOperation();

    // A multiply feeding an add may become one FMA, as vector.contract
    // lowering does anyway; kernels are not bitwise-reproducible against
    // a scalar reference by design.
    root->walk([](arith::ArithFastMathInterface op) {
      // Some ops (scaling_extf, ...) leave the attribute out when unset.
      arith::FastMathFlagsAttr current = op.getFastMathFlagsAttr();
      arith::FastMathFlags flags =
          current ? current.getValue() : arith::FastMathFlags::none;
      op->setAttr(
          op.getFastMathAttrName(),
          arith::FastMathFlagsAttr::get(
              op->getContext(), flags | arith::FastMathFlags::contract));
    });

    // The math functions ML programs spend their time in become
    // polynomials that vectorize (LLVM would call libm once per lane);
    // f16/bf16 ones go through f32. sin and cos stay with libm: the
    // polynomial's range reduction loses accuracy for large arguments.
    {
      auto approximated = [](StringRef name) {
        return llvm::is_contained(
            {math::ExpOp::getOperationName(), math::ExpM1Op::getOperationName(),
             math::LogOp::getOperationName(), math::Log2Op::getOperationName(),
             math::Log1pOp::getOperationName(),
             math::TanhOp::getOperationName(), math::ErfOp::getOperationName(),
             math::ErfcOp::getOperationName()},
            name);
      };
      RewritePatternSet patterns(context);
      populateMathF32ExpansionPatterns(patterns, approximated);
      populateMathPolynomialApproximationPatterns(patterns, approximated);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
    // Masks into the transfers they guard; reductions of products into
    // contractions.
    {
      RewritePatternSet patterns(context);
      vector::populateVectorReductionToContractPatterns(patterns);
      vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
      vector::VectorDialect *dialect =
          context->getLoadedDialect<vector::VectorDialect>();
      dialect->getCanonicalizationPatterns(patterns);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
    // MLIR's contraction lowering leaves a masked contraction that extends
    // its operands (i8 into i32) and leads with a unit dim (the batch of one
    // of a batched tile, masked where a tile of a B read in place is
    // partial); without its leading unit dims, it lowers. Unmasked
    // contractions keep theirs: dropping every leading unit dim of a
    // contraction tile cost 97^3 15% (0.0107 -> 0.0123 ms, Zen 5).
    {
      SmallVector<Operation *> masked;
      root->walk([&](vector::ContractionOp op) {
        if (op.isMasked())
          masked.push_back(op);
      });
      RewritePatternSet patterns(context);
      vector::populateCastAwayVectorLeadingOneDimPatterns(patterns);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (!masked.empty() &&
          failed(applyOpPatternsGreedily(masked, std::move(patterns), config)))
        return signalPassFailure();
    }
    // Reductions along the innermost dimensions (the last, or the last few
    // together, as a partial reduction's merge over [..., 1, 64]) into one
    // horizontal reduction per row (a shuffle tree in LLVM); the others,
    // below, into elementwise ops across rows. Lowered as the others, a
    // merge over [1, 64] became 64 dependent scalar adds.
    {
      SmallVector<Operation *> innermost;
      root->walk([&](vector::MultiDimReductionOp op) {
        int64_t rank = op.getSourceVectorType().getRank();
        ArrayRef<int64_t> dims = op.getReductionDims();
        bool trailing = !dims.empty();
        for (auto [i, dim] : llvm::enumerate(llvm::reverse(dims)))
          trailing &= dim == rank - 1 - static_cast<int64_t>(i);
        if (trailing)
          innermost.push_back(op);
      });
      RewritePatternSet patterns(context);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (!innermost.empty() && failed(applyOpPatternsGreedily(
                                    innermost, std::move(patterns), config)))
        return signalPassFailure();
    }
    // A transposing copy's 16x16 blocks of 32-bit elements (reads through
    // a permutation of their two minor dims) into reads of 16 rows and
    // shuffles of whole rows; only those: the transpose lowering below,
    // element by element, also orders the broadcasts of a contraction's
    // register tile, which the shuffle lowering would reorder.
    {
      SmallVector<Operation *> blocks;
      root->walk([&](vector::TransferReadOp op) {
        VectorType type = op.getVectorType();
        int64_t rank = type.getRank();
        AffineMap map = op.getPermutationMap();
        if (rank < 2 || map.isMinorIdentity() || !map.isPermutation() ||
            type.getDimSize(rank - 1) != 16 ||
            type.getDimSize(rank - 2) != 16 ||
            !type.getElementType().isIntOrFloat() ||
            type.getElementType().getIntOrFloatBitWidth() != 32 ||
            map.getDimPosition(rank - 1) != unsigned(rank - 2) ||
            map.getDimPosition(rank - 2) != unsigned(rank - 1))
          return;
        blocks.push_back(op);
      });
      RewritePatternSet patterns(context);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::Shuffle16x16);
      GreedyRewriteConfig config;
      config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
      if (!blocks.empty() &&
          failed(applyOpPatternsGreedily(blocks, std::move(patterns), config)))
        return signalPassFailure();
    }
    // Contractions into outer products, everything n-D into 1-D pieces.
    {
      RewritePatternSet patterns(context);
      vector::populateVectorContractLoweringPatterns(
          patterns, vector::VectorContractLowering::OuterProduct);
      vector::populateVectorOuterProductLoweringPatterns(patterns);
      vector::populateVectorMaskOpLoweringPatterns(patterns);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerParallel);
      vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
      vector::populateVectorTransposeLoweringPatterns(
          patterns, vector::VectorTransposeLowering::EltWise);
      vector::populateVectorBroadcastLoweringPatterns(patterns);
      vector::populateVectorShapeCastLoweringPatterns(patterns);
      vector::populateVectorGatherLoweringPatterns(patterns);
      vector::populateVectorStepLoweringPatterns(patterns);
      vector::populateVectorInsertExtractStridedSliceTransforms(patterns);
      vector::populateVectorTransferLoweringPatterns(patterns,
                                                     /*maxTransferRank=*/1);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace
