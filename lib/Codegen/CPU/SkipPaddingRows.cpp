//===- SkipPaddingRows.cpp - Filter rows that meet only padding -----------===//
//
// A convolution whose padding is fused into its dispatch reads a padded
// tile of the image: an output row at the top or bottom border multiplies
// some rows of the filter window by rows of padding alone. With zeros for
// padding, those products add nothing, and an output row's tile takes only
// the rows of the filter that meet image rows: ResNet's 3x3 convolutions
// at 7x7 compute 2 of 7 output rows with 2 filter rows of 3, 9.5% fewer
// multiply-adds, oneDNN's count too. (A filter holding an infinity or NaN
// would have made NaN of those zeros; the rows skipped leave it out, as
// oneDNN's kernels do.)
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace kiln;

/// The tensor.pad whose result `value` is, through casts and the branch of
/// an scf.if that workgroup tiling makes (a tile entirely in the padding
/// on one side, the padded tile on the other); null otherwise.
static tensor::PadOp getPadding(Value value) {
  if (auto cast = value.getDefiningOp<tensor::CastOp>())
    value = cast.getSource();
  if (auto pad = value.getDefiningOp<tensor::PadOp>())
    return pad;
  auto ifOp = value.getDefiningOp<scf::IfOp>();
  if (!ifOp || !ifOp.elseBlock())
    return {};
  unsigned result = cast<OpResult>(value).getResultNumber();
  Value padded = ifOp.elseYield().getOperand(result);
  if (auto cast = padded.getDefiningOp<tensor::CastOp>())
    padded = cast.getSource();
  auto pad = padded.getDefiningOp<tensor::PadOp>();
  // The other branch must be all padding: a generate of one value.
  if (!pad ||
      !ifOp.thenYield().getOperand(result).getDefiningOp<tensor::GenerateOp>())
    return {};
  return pad;
}

/// Whether `value` is available wherever `op` is: not defined inside an
/// op that `op` is not in.
static bool isAvailableAt(OpFoldResult value, Operation *op) {
  auto v = dyn_cast<Value>(value);
  if (!v)
    return true;
  Region *region = v.getParentRegion();
  return region->isAncestor(op->getParentRegion());
}

namespace {
/// Where the image's rows lie in a zero-padded tile: after `low` rows of
/// padding, `rows` of them.
struct PaddedRows {
  OpFoldResult low, rows;
};
} // namespace

/// The padded rows of `image`, the image of the convolution `op`: a
/// tensor.pad with +0.0 or 0 (getPadding), whose low padding and source
/// rows are available at `op`.
static std::optional<PaddedRows> getPaddedRows(Value image, Operation *op) {
  tensor::PadOp pad = getPadding(image);
  if (!pad || pad.getNofold() || pad.getResultType().getRank() != 4)
    return std::nullopt;
  Value padding = pad.getConstantPaddingValue();
  if (!padding || !(matchPattern(padding, m_PosZeroFloat()) ||
                    matchPattern(padding, m_Zero())))
    return std::nullopt;
  // The image's rows in the padded tile: after the low padding, as many
  // as the source has.
  OpFoldResult low = pad.getMixedLowPad()[1];
  OpFoldResult rows;
  auto sourceType = cast<RankedTensorType>(pad.getSource().getType());
  if (!sourceType.isDynamicDim(1))
    rows = OpBuilder(op).getIndexAttr(sourceType.getDimSize(1));
  else if (auto slice = pad.getSource().getDefiningOp<tensor::ExtractSliceOp>();
           slice && slice.getSourceType().getRank() == 4)
    rows = slice.getMixedSizes()[1];
  if (!rows || !isAvailableAt(low, op) || !isAvailableAt(rows, op))
    return std::nullopt;
  return PaddedRows{low, rows};
}

void kiln::skipPaddingRows(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<linalg::Conv2DNhwcHwcfOp> tiles;
  for (Operation *op : findConfiguredOps(func))
    if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
      tiles.push_back(conv);
  for (linalg::Conv2DNhwcHwcfOp conv : tiles) {
    // One output row per tile, of a whole filter window.
    auto filterType = cast<RankedTensorType>(conv.getDpsInputs()[1].getType());
    if (cast<RankedTensorType>(conv.getResultTypes()[0]).getDimSize(1) != 1 ||
        filterType.isDynamicDim(0))
      continue;
    // The padded tile the tile reads, from row `rowOffset` of it: all of
    // it, or a slice.
    Value input = conv.getDpsInputs()[0];
    Value image = input;
    OpFoldResult rowOffset = rewriter.getIndexAttr(0);
    if (auto slice = input.getDefiningOp<tensor::ExtractSliceOp>()) {
      if (!slice.hasUnitStride() || slice.getSourceType().getRank() != 4)
        continue;
      image = slice.getSource();
      rowOffset = slice.getMixedOffsets()[1];
    }
    std::optional<PaddedRows> padded = getPaddedRows(image, conv);
    if (!padded)
      continue;
    int64_t windowRows = filterType.getDimSize(0);
    int64_t dilation = conv.getDilations().getValues<int64_t>()[0];
    Location loc = conv.getLoc();
    rewriter.setInsertionPoint(conv);
    MLIRContext *context = rewriter.getContext();
    AffineExpr lo, rows, offset;
    bindSymbols(context, lo, rows, offset);
    SmallVector<OpFoldResult> operands = {padded->low, padded->rows, rowOffset};
    auto map = [&](ArrayRef<AffineExpr> exprs) {
      return AffineMap::get(0, 3, exprs, context);
    };
    // Filter row k meets image row offset + k * dilation, in [lo, lo +
    // rows): k from ceil((lo - offset) / dilation) up to (not including)
    // ceil((lo + rows - offset) / dilation), within the window.
    OpFoldResult first = affine::makeComposedFoldedAffineMax(
        rewriter, loc,
        map({getAffineConstantExpr(0, context),
             (lo - offset).ceilDiv(dilation)}),
        operands);
    OpFoldResult end = affine::makeComposedFoldedAffineMin(
        rewriter, loc,
        map({getAffineConstantExpr(windowRows, context),
             (lo + rows - offset).ceilDiv(dilation)}),
        operands);
    AffineExpr a, b;
    bindSymbols(context, a, b);
    OpFoldResult count = affine::makeComposedFoldedAffineMax(
        rewriter, loc,
        AffineMap::get(0, 2, {getAffineConstantExpr(0, context), b - a},
                       context),
        {first, end});
    // Nothing to skip when every tile takes the whole window.
    if (getConstantIntValue(count) == windowRows)
      continue;
    // The tile's input from the row the first filter row meets.
    OpFoldResult inputOffset = affine::makeComposedFoldedAffineApply(
        rewriter, loc, a * dilation, {first});
    OpFoldResult inputRows = affine::makeComposedFoldedAffineMax(
        rewriter, loc,
        AffineMap::get(
            0, 1,
            {getAffineConstantExpr(0, context), a * dilation - dilation + 1},
            context),
        {count});
    SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, input);
    offsets[1] = inputOffset;
    sizes[1] = inputRows;
    Value rowsRead = tensor::ExtractSliceOp::create(
        rewriter, loc, input, offsets, sizes,
        SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
    SmallVector<OpFoldResult> filterOffsets(4, rewriter.getIndexAttr(0));
    filterOffsets[0] = first;
    SmallVector<OpFoldResult> filterSizes =
        tensor::getMixedSizes(rewriter, loc, conv.getDpsInputs()[1]);
    filterSizes[0] = count;
    Value filter = tensor::ExtractSliceOp::create(
        rewriter, loc, conv.getDpsInputs()[1], filterOffsets, filterSizes,
        SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
    rewriter.modifyOpInPlace(conv, [&] {
      conv.getDpsInputOperand(0)->set(rowsRead);
      conv.getDpsInputOperand(1)->set(filter);
    });
  }
}
