//===- DecomposeOps.cpp - Composite ops into simpler ones ------------------===//
//
// Rewrites ops whose lowering is a sequence of simpler ops (softmax, pack,
// unpack, concat, winograd transforms) into that sequence.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_DECOMPOSEOPSPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
struct DecomposeOpsPass
    : public kiln::impl::DecomposeOpsPassBase<DecomposeOpsPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    IRRewriter rewriter(&getContext());

    SmallVector<Operation *> ops;
    root->walk([&](Operation *op) {
      if (isa<linalg::AggregatedOpInterface, linalg::PackOp, linalg::UnPackOp>(
              op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      if (auto pack = dyn_cast<linalg::PackOp>(op)) {
        if (pack.hasPureTensorSemantics())
          (void)linalg::lowerPack(rewriter, pack);
      } else if (auto unpack = dyn_cast<linalg::UnPackOp>(op)) {
        if (unpack.hasPureTensorSemantics())
          (void)linalg::lowerUnPack(rewriter, unpack);
      } else {
        auto aggregated = cast<linalg::AggregatedOpInterface>(op);
        FailureOr<SmallVector<Value>> replacements =
            aggregated.decomposeOperation(rewriter);
        if (succeeded(replacements))
          rewriter.replaceOp(op, *replacements);
      }
    }

    RewritePatternSet patterns(&getContext());
    tensor::populateDecomposeTensorConcatPatterns(patterns);
    linalg::populateDecomposeWinogradOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(root, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
