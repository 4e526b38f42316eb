//===- DecomposeOps.cpp - Composite ops into simpler ones
//------------------===//
//
// Rewrites ops whose lowering is a sequence of simpler ops (softmax, pack,
// unpack, concat, winograd transforms) into that sequence.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_DECOMPOSEOPSPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// Where in a pack's source dim `d` sits among the outer dims of the
/// packed layout.
static SmallVector<int64_t> getOuterPositions(ArrayRef<int64_t> outerPerm,
                                              int64_t rank) {
  SmallVector<int64_t> positions(rank);
  for (int64_t p = 0; p < rank; ++p)
    positions[outerPerm.empty() ? p : outerPerm[p]] = p;
  return positions;
}

/// A pack or unpack the static decompositions do not handle (dynamic inner
/// tiles): a linalg.generic over the result that reads each element from
/// the source, with the padding value outside it.
static LogicalResult gatherPackOrUnpack(RewriterBase &rewriter, Operation *op) {
  auto pack = dyn_cast<linalg::PackOp>(op);
  auto unpack = dyn_cast<linalg::UnPackOp>(op);
  Value source = pack ? pack.getSource() : unpack.getSource();
  Value dest = pack ? pack.getDest() : unpack.getDest();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  ArrayRef<int64_t> innerPos =
      pack ? pack.getInnerDimsPos() : unpack.getInnerDimsPos();
  ArrayRef<int64_t> outerPerm =
      pack ? pack.getOuterDimsPerm() : unpack.getOuterDimsPerm();
  SmallVector<OpFoldResult> tiles =
      pack ? pack.getMixedTiles() : unpack.getMixedTiles();
  Value padding = pack ? pack.getPaddingValue() : Value();
  int64_t unpackedRank = pack ? pack.getSourceRank() : unpack.getDestRank();
  Location loc = op->getLoc();
  SmallVector<int64_t> outerPositions =
      getOuterPositions(outerPerm, unpackedRank);

  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto body = [&](OpBuilder &b, Location loc, ValueRange) {
    SmallVector<Value> index;
    for (int64_t d = 0; d < rank; ++d)
      index.push_back(linalg::IndexOp::create(b, loc, d));
    SmallVector<Value> tileSizes = llvm::map_to_vector(tiles, [&](auto t) {
      return getValueOrCreateConstantIndexOp(b, loc, t);
    });
    SmallVector<Value> read;
    Value inBounds;
    if (pack) {
      // Source dim d: outer * tile + inner when tiled, else outer.
      for (int64_t d = 0; d < unpackedRank; ++d) {
        Value outer = index[outerPositions[d]];
        Value position = outer;
        for (auto [k, tiled] : llvm::enumerate(innerPos))
          if (tiled == d)
            position = arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, outer, tileSizes[k]),
                index[unpackedRank + k]);
        read.push_back(position);
        if (padding) {
          Value size = tensor::DimOp::create(b, loc, source, d);
          Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             position, size);
          inBounds =
              inBounds ? arith::AndIOp::create(b, loc, inBounds, fits) : fits;
        }
      }
    } else {
      // Packed source: outer dims in their permuted order, then the inner
      // position of each tiled dim.
      read.assign(unpackedRank + innerPos.size(), Value());
      for (int64_t d = 0; d < unpackedRank; ++d)
        read[outerPositions[d]] = index[d];
      for (auto [k, tiled] : llvm::enumerate(innerPos)) {
        read[outerPositions[tiled]] =
            arith::DivUIOp::create(b, loc, index[tiled], tileSizes[k]);
        read[unpackedRank + k] =
            arith::RemUIOp::create(b, loc, index[tiled], tileSizes[k]);
      }
    }
    if (inBounds) {
      // Clamp the read so that it stays inside even where it is unused.
      for (int64_t d = 0; d < unpackedRank; ++d) {
        Value size = tensor::DimOp::create(b, loc, source, d);
        Value last = arith::SubIOp::create(
            b, loc, size, arith::ConstantIndexOp::create(b, loc, 1));
        read[d] = arith::MinUIOp::create(b, loc, read[d], last);
      }
    }
    Value element = tensor::ExtractOp::create(b, loc, source, read);
    if (inBounds)
      element = arith::SelectOp::create(b, loc, inBounds, element, padding);
    linalg::YieldOp::create(b, loc, element);
  };
  rewriter.setInsertionPoint(op);
  auto generic =
      linalg::GenericOp::create(rewriter, loc, resultType, ValueRange(),
                                ValueRange{dest}, maps, iterators, body);
  rewriter.replaceOp(op, generic.getResults());
  return success();
}

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
        if (pack.hasPureTensorSemantics() &&
            failed(linalg::lowerPack(rewriter, pack)))
          (void)gatherPackOrUnpack(rewriter, pack);
      } else if (auto unpack = dyn_cast<linalg::UnPackOp>(op)) {
        if (unpack.hasPureTensorSemantics() &&
            failed(linalg::lowerUnPack(rewriter, unpack)))
          (void)gatherPackOrUnpack(rewriter, unpack);
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
