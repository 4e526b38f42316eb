//===- GroupedConvolution.cpp - A workgroup of one group or panel ---------===//
//
// A grouped convolution reaches codegen as a linalg.generic over NHWGC
// images and KH x KW x G x C x F filters (global optimization's
// conversion to channels last), the group a parallel loop of its own that
// every workgroup takes one of; a convolution whose constant filter global
// optimization packed in panels (F/P x KH x KW x C x P) as a generic whose
// panel loop every workgroup takes one of. Inside a workgroup that loop is
// then a unit dim: dropped from the convolution, the fill that starts it and
// its epilogue (through rank-reducing slices of their 5-D operands), what is
// left is an ordinary linalg.conv_2d_nhwc_hwcf, and the rest of the
// cpu-convolution pipeline treats it as one.
//
//===----------------------------------------------------------------------===//

#include "LoweringConfigUtils.h"
#include "TilingUtils.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;
using namespace kiln;

std::optional<ConvolutionUnitLoop>
kiln::getConvolutionUnitLoop(linalg::LinalgOp op) {
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims) || dims->inputChannel.empty() || dims->outputChannel.empty())
    return std::nullopt;
  if (dims->depth.size() == 1 && dims->outputChannel.size() == 1)
    return ConvolutionUnitLoop{dims->depth.front(),
                               ConvolutionUnitLoop::Kind::Group};
  if (!dims->depth.empty() || dims->outputChannel.size() != 2)
    return std::nullopt;
  // The panel: the output-channel loop that is not innermost in the output.
  AffineMap outputMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto innermost = dyn_cast<AffineDimExpr>(outputMap.getResults().back());
  if (!innermost ||
      !llvm::is_contained(dims->outputChannel, innermost.getPosition()))
    return std::nullopt;
  unsigned panel = dims->outputChannel[0] == innermost.getPosition()
                       ? dims->outputChannel[1]
                       : dims->outputChannel[0];
  return ConvolutionUnitLoop{panel, ConvolutionUnitLoop::Kind::FilterPanel};
}

/// `tile` without the entry of loop `loop`.
static SmallVector<int64_t> dropLoop(ArrayRef<int64_t> tile, unsigned loop) {
  SmallVector<int64_t> result(tile);
  if (loop < result.size())
    result.erase(result.begin() + loop);
  return result;
}

/// Drops loop `loop` (a unit one) from the generic `op`, its operands
/// sliced down a rank and its result inserted back; the new generic.
static FailureOr<linalg::GenericOp>
dropUnitLoop(RewriterBase &rewriter, linalg::GenericOp op, unsigned loop) {
  linalg::ControlDropUnitDims options;
  options.rankReductionStrategy =
      linalg::ControlDropUnitDims::RankReductionStrategy::ExtractInsertSlice;
  options.controlFn = [loop](Operation *) {
    return SmallVector<unsigned>{loop};
  };
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::DropUnitDimsResult> result =
      linalg::dropUnitDims(rewriter, op, options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return cast<linalg::GenericOp>(result->resultOp.getOperation());
}

FailureOr<std::pair<Operation *, LoweringConfigAttr>>
kiln::dropConvolutionUnitLoop(RewriterBase &rewriter, Operation *root,
                              LoweringConfigAttr config) {
  auto generic = dyn_cast<linalg::GenericOp>(root);
  std::optional<ConvolutionUnitLoop> unit =
      generic ? getConvolutionUnitLoop(generic) : std::nullopt;
  if (!unit)
    return std::pair(root, config);
  unsigned loop = unit->loop;
  if (generic.getStaticLoopRanges()[loop] != 1)
    return root->emitError()
           << "a workgroup of this convolution takes "
           << generic.getStaticLoopRanges()[loop] << " " << unit->name()
           << "s; the cpu-convolution pipeline needs one (a workgroup "
              "tile of 1 along loop "
           << loop << ")";
  // The loop's position in the result, which the fill and the epilogue
  // (identity maps over the result) index by the loop of that number.
  AffineMap outputMap =
      generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  std::optional<unsigned> position = outputMap.getResultPosition(
      getAffineDimExpr(loop, rewriter.getContext()));
  if (!position)
    return std::pair(root, config);
  SmallVector<linalg::LinalgOp> epilogue = getEpilogue(generic);

  if (auto fill = generic.getDpsInits()[0].getDefiningOp<linalg::FillOp>()) {
    rewriter.setInsertionPoint(fill);
    FailureOr<linalg::GenericOp> fillGeneric =
        linalg::generalizeNamedOp(rewriter, fill);
    FailureOr<linalg::GenericOp> dropped =
        succeeded(fillGeneric) ? dropUnitLoop(rewriter, *fillGeneric, *position)
                               : FailureOr<linalg::GenericOp>(failure());
    if (failed(dropped))
      return root->emitError()
             << "could not drop the " << unit->name() << " from its fill";
    (void)linalg::specializeGenericOp(rewriter, *dropped);
  }

  DictionaryAttr attributes = generic->getDiscardableAttrDictionary();
  FailureOr<linalg::GenericOp> conv = dropUnitLoop(rewriter, generic, loop);
  if (failed(conv))
    return root->emitError()
           << "could not drop the " << unit->name() << " loop " << loop;
  // A body that is a multiply-add becomes the named convolution, which
  // decomposes to 1-D and vectorizes; another stays a generic and runs as
  // scalar loops.
  rewriter.setInsertionPoint(*conv);
  FailureOr<linalg::LinalgOp> named =
      linalg::specializeGenericOp(rewriter, *conv);
  Operation *newRoot =
      succeeded(named) ? named->getOperation() : conv->getOperation();
  auto newConfig =
      getConfigLike(config, dropLoop(config.getWorkgroupTile(), loop),
                    dropLoop(config.getCacheTile(), loop),
                    dropLoop(config.getRegisterTile(), loop),
                    dropLoop(config.getVectorSizes(), loop));
  newRoot->setDiscardableAttrs(attributes);
  newRoot->setAttr(KilnDialect::getLoweringConfigAttrName(), newConfig);

  for (linalg::LinalgOp op : epilogue) {
    auto opGeneric = dyn_cast<linalg::GenericOp>(op.getOperation());
    if (!opGeneric || failed(dropUnitLoop(rewriter, opGeneric, *position)))
      return op->emitError() << "could not drop the " << unit->name()
                             << " from this op of the epilogue";
  }
  return std::pair(newRoot, newConfig);
}
