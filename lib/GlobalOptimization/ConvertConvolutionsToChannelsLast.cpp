//===- ConvertConvolutionsToChannelsLast.cpp - NCHW convolutions to NHWC --===//
//
// Rewrites convolutions and pooling on channels-first images (NCHW, the
// layout of PyTorch and ONNX) into their channels-last forms, which the
// CPU's convolution pipeline vectorizes along the channels, with
// transposes around them. Transposes of constant filters are folded here;
// the others fuse with the elementwise ops around them, and back-to-back
// ones cancel, so activations stay channels-last between convolutions.
// Grouped convolutions become a linalg.generic over NHWGC images, their
// filters KH x KW x G x C x F: a workgroup of one group is then an
// ordinary channels-last convolution (TileConvolution drops the group).
//
//===----------------------------------------------------------------------===//

#include "TransposeConstant.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTCONVOLUTIONSTOCHANNELSLASTPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// `perm` applied to a shape: result[i] = shape[perm[i]].
static SmallVector<int64_t> permute(ArrayRef<int64_t> shape,
                                    ArrayRef<int64_t> perm) {
  return llvm::map_to_vector(perm, [&](int64_t p) { return shape[p]; });
}

/// `value` transposed by `perm`: a folded constant when it is one (dense
/// or a dense_resource blob, as ONNX weights are); the
/// padding of the transposed source when it is padded with a constant (so
/// that the transpose meets the op producing the source, and cancels
/// against the transpose after a previous convolution); else a
/// linalg.transpose into an empty tensor.
static Value transpose(RewriterBase &rewriter, Location loc, Value value,
                       ArrayRef<int64_t> perm) {
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    if (DenseElementsAttr dense = kiln::getDenseElements(constant))
      if (DenseElementsAttr folded = kiln::transposeConstant(dense, perm))
        return arith::ConstantOp::create(rewriter, loc, folded);
  auto pad = value.getDefiningOp<tensor::PadOp>();
  if (pad && pad.getConstantPaddingValue() && !pad.getNofold()) {
    Value source = transpose(rewriter, loc, pad.getSource(), perm);
    SmallVector<OpFoldResult> low = pad.getMixedLowPad();
    SmallVector<OpFoldResult> high = pad.getMixedHighPad();
    auto type =
        RankedTensorType::get(permute(pad.getResultType().getShape(), perm),
                              pad.getResultType().getElementType());
    return tensor::PadOp::create(
        rewriter, loc, type, source,
        llvm::map_to_vector(perm, [&](int64_t p) { return low[p]; }),
        llvm::map_to_vector(perm, [&](int64_t p) { return high[p]; }),
        pad.getConstantPaddingValue());
  }
  return kiln::createTranspose(rewriter, loc, value, perm);
}

/// The accumulator in the new layout: a fill of an empty tensor is made
/// again in that layout, anything else is transposed.
static Value transposeInit(RewriterBase &rewriter, Location loc, Value init,
                           ArrayRef<int64_t> perm) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (fill && fill.getOutputs().front().getDefiningOp<tensor::EmptyOp>()) {
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, init);
    SmallVector<OpFoldResult> permuted =
        llvm::map_to_vector(perm, [&](int64_t p) { return sizes[p]; });
    Value empty = tensor::EmptyOp::create(rewriter, loc, permuted,
                                          getElementTypeOrSelf(init));
    return linalg::FillOp::create(rewriter, loc, fill.getInputs().front(),
                                  empty)
        .getResult(0);
  }
  return transpose(rewriter, loc, init, perm);
}

/// NCHW -> NHWC and back.
static constexpr int64_t kToChannelsLast[] = {0, 2, 3, 1};
static constexpr int64_t kToChannelsFirst[] = {0, 3, 1, 2};

/// Rewrites `op` (channels first) into a `NewOp` (channels last) on the
/// transposed image and filter (`filterPerm`; empty: the filter is a window
/// shape, used as is), and transposes the result back.
template <typename NewOp>
static void convert(RewriterBase &rewriter, linalg::LinalgOp op,
                    ArrayRef<int64_t> filterPerm, Attribute strides,
                    Attribute dilations) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value image = transpose(rewriter, loc, op.getDpsInputs()[0], kToChannelsLast);
  Value filter = op.getDpsInputs()[1];
  if (!filterPerm.empty())
    filter = transpose(rewriter, loc, filter, filterPerm);
  Value init =
      transposeInit(rewriter, loc, op.getDpsInits()[0], kToChannelsLast);
  auto converted = NewOp::create(rewriter, loc, TypeRange{init.getType()},
                                 ValueRange{image, filter}, ValueRange{init},
                                 strides, dilations);
  rewriter.replaceOp(
      op, transpose(rewriter, loc, converted->getResult(0), kToChannelsFirst));
}

/// Rewrites the grouped convolution `op` into a linalg.generic over
/// channels-last operands, its loops (n, oh, ow, g, f, kh, kw, c) with the
/// group g beside the output channels f. `imagePerm` takes the image (and
/// the accumulator) to NHWGC, the result back by the same permutation
/// (empty: already NHWGC); `filterPerm` takes the filter to KH x KW x G x
/// C x F. The body is the named op's own, conversions included. `strides`
/// and `dilations` are the op's, defaults filled in.
static void convertGrouped(RewriterBase &rewriter, linalg::LinalgOp op,
                           ArrayRef<int64_t> imagePerm,
                           ArrayRef<int64_t> filterPerm,
                           DenseIntElementsAttr strides,
                           DenseIntElementsAttr dilations) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value image = op.getDpsInputs()[0];
  Value init = op.getDpsInits()[0];
  if (!imagePerm.empty()) {
    image = transpose(rewriter, loc, image, imagePerm);
    init = transposeInit(rewriter, loc, init, imagePerm);
  }
  Value filter = transpose(rewriter, loc, op.getDpsInputs()[1], filterPerm);
  SmallVector<int64_t> s = llvm::to_vector(strides.getValues<int64_t>());
  SmallVector<int64_t> d = llvm::to_vector(dilations.getValues<int64_t>());
  MLIRContext *context = rewriter.getContext();
  AffineExpr n, oh, ow, g, f, kh, kw, c;
  bindDims(context, n, oh, ow, g, f, kh, kw, c);
  SmallVector<AffineMap> maps = {
      AffineMap::get(8, 0,
                     {n, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1], g, c},
                     context),
      AffineMap::get(8, 0, {kh, kw, g, c, f}, context),
      AffineMap::get(8, 0, {n, oh, ow, g, f}, context)};
  SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
  iterators.append(3, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{image, filter},
      ValueRange{init}, maps, iterators);
  rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                             generic.getRegion().end());
  Value result = generic.getResult(0);
  if (!imagePerm.empty())
    result = transpose(rewriter, loc, result, imagePerm);
  rewriter.replaceOp(op, result);
}

/// NGCHW -> NHWGC and NHWGF -> NGFHW: one permutation both ways.
static constexpr int64_t kGroupedToChannelsLast[] = {0, 3, 4, 1, 2};

namespace {
struct ConvertConvolutionsToChannelsLastPass
    : public kiln::impl::ConvertConvolutionsToChannelsLastPassBase<
          ConvertConvolutionsToChannelsLastPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() &&
          isa<linalg::Conv2DNchwFchwOp, linalg::DepthwiseConv2DNchwChwOp,
              linalg::PoolingNchwMaxOp, linalg::PoolingNchwSumOp,
              linalg::Conv2DNgchwGfchwOp, linalg::Conv2DNgchwFgchwOp,
              linalg::Conv2DNhwgcGfhwcOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(*op))
        // FCHW -> HWCF.
        convert<linalg::Conv2DNhwcHwcfOp>(rewriter, op, {2, 3, 1, 0},
                                          conv.getStridesAttr(),
                                          conv.getDilationsAttr());
      else if (auto conv = dyn_cast<linalg::DepthwiseConv2DNchwChwOp>(*op))
        // CHW -> HWC.
        convert<linalg::DepthwiseConv2DNhwcHwcOp>(rewriter, op, {1, 2, 0},
                                                  conv.getStridesAttr(),
                                                  conv.getDilationsAttr());
      else if (auto pool = dyn_cast<linalg::PoolingNchwMaxOp>(*op))
        convert<linalg::PoolingNhwcMaxOp>(
            rewriter, op, {}, pool.getStridesAttr(), pool.getDilationsAttr());
      else if (auto pool = dyn_cast<linalg::PoolingNchwSumOp>(*op))
        convert<linalg::PoolingNhwcSumOp>(
            rewriter, op, {}, pool.getStridesAttr(), pool.getDilationsAttr());
      else if (auto conv = dyn_cast<linalg::Conv2DNgchwGfchwOp>(*op))
        // GFCHW -> HWGCF.
        convertGrouped(rewriter, op, kGroupedToChannelsLast, {3, 4, 0, 2, 1},
                       conv.getStrides(), conv.getDilations());
      else if (auto conv = dyn_cast<linalg::Conv2DNgchwFgchwOp>(*op))
        // FGCHW -> HWGCF.
        convertGrouped(rewriter, op, kGroupedToChannelsLast, {3, 4, 1, 2, 0},
                       conv.getStrides(), conv.getDilations());
      else if (auto conv = dyn_cast<linalg::Conv2DNhwgcGfhwcOp>(*op))
        // GFHWC -> HWGCF.
        convertGrouped(rewriter, op, {}, {2, 3, 0, 4, 1}, conv.getStrides(),
                       conv.getDilations());
    }
  }
};
} // namespace
