//===- PackConvolutionFilters.cpp - Constant filters in panels ------------===//
//
// A channels-last convolution's register tile steps through one row of its
// filter (the output channels of one tap and input channel, innermost in
// HWCF) per multiply-add step, and in a filter of many output channels those
// rows lie kilobytes apart: four or fewer to a page, few sets of the cache
// for all of them. A constant filter (a model's weights) is laid out here,
// at compile time, in panels of output channels as wide as the target's
// register tile, F/P x KH x KW x C x P, each panel contiguous; the
// convolution becomes a generic whose loops (n, oh, ow, fo, fi, kh, kw, c)
// split the output channels into the panel fo and the channel within it
// fi, its result N x OH x OW x F/P x P collapsed back to NHWF. A workgroup
// of the CPU convolution pipeline takes one panel, drops its unit loop and
// runs the ordinary convolution on a contiguous filter
// (GroupedConvolution.cpp in codegen). Elementwise fusion then moves the
// collapse past the epilogue (bias, activation, residual), which stays
// fused into the convolution's dispatch.
//
//===----------------------------------------------------------------------===//

#include "TransposeConstant.h"
#include "WeightPanels.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_PACKCONVOLUTIONFILTERSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// The constant filter of a convolution to pack, and the panel width in
/// output channels.
struct PackableFilter {
  DenseElementsAttr filter;
  int64_t panel;
};
} // namespace

/// The filter of `conv` and its panel width when the pass packs it: a
/// dense constant or dense_resource blob (not a splat), of static shape,
/// `minFilterBytes` or larger, whose rows (its output channels) are
/// `minRowBytes` or more and hold more than one whole panel of
/// `panelBytes`. Image, filter and result of one float type: the packed
/// generic must specialize back to the named convolution in codegen, which
/// takes a plain multiply-add.
static std::optional<PackableFilter>
getPackableFilter(linalg::Conv2DNhwcHwcfOp conv, int64_t panelBytes,
                  int64_t minRowBytes, int64_t minFilterBytes) {
  Attribute value;
  if (!conv.hasPureTensorSemantics() ||
      !matchPattern(conv.getDpsInputs()[1], m_Constant(&value)))
    return std::nullopt;
  // A dense_resource blob too: importers keep large weights in them.
  DenseElementsAttr filter = kiln::getDenseElements(value);
  if (!filter || filter.isSplat())
    return std::nullopt;
  auto type = cast<RankedTensorType>(filter.getType());
  Type element = type.getElementType();
  auto sameType = [&](Value v) { return getElementTypeOrSelf(v) == element; };
  if (!isa<FloatType>(element) || element.getIntOrFloatBitWidth() % 8 != 0 ||
      !sameType(conv.getDpsInputs()[0]) || !sameType(conv.getDpsInits()[0]) ||
      !type.hasStaticShape())
    return std::nullopt;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t channels = type.getDimSize(3);
  int64_t panel = panelBytes / bytes;
  if (panel < 1 || channels <= panel || channels % panel != 0 ||
      channels * bytes < minRowBytes ||
      type.getNumElements() * bytes < minFilterBytes)
    return std::nullopt;
  return PackableFilter{filter, panel};
}

/// Rewrites `conv` to read `packable`'s filter in panels.
static void packFilter(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp conv,
                       PackableFilter packable) {
  Location loc = conv.getLoc();
  rewriter.setInsertionPoint(conv);
  // KH x KW x C x F -> KH x KW x C x F/P x P -> F/P x KH x KW x C x P.
  auto type = cast<RankedTensorType>(packable.filter.getType());
  ArrayRef<int64_t> shape = type.getShape();
  auto split = RankedTensorType::get(
      {shape[0], shape[1], shape[2], shape[3] / packable.panel, packable.panel},
      type.getElementType());
  DenseElementsAttr packed =
      kiln::transposeConstant(packable.filter.reshape(split), {3, 0, 1, 2, 4});
  Value filter = arith::ConstantOp::create(rewriter, loc, packed);
  Value init = kiln::expandToPanels(rewriter, loc, conv.getDpsInits()[0],
                                    shape[3], shape[3], packable.panel);

  SmallVector<int64_t> s =
      llvm::to_vector(conv.getStrides().getValues<int64_t>());
  SmallVector<int64_t> d =
      llvm::to_vector(conv.getDilations().getValues<int64_t>());
  MLIRContext *context = rewriter.getContext();
  AffineExpr n, oh, ow, fo, fi, kh, kw, c;
  bindDims(context, n, oh, ow, fo, fi, kh, kw, c);
  SmallVector<AffineMap> maps = {
      AffineMap::get(8, 0, {n, oh * s[0] + kh * d[0], ow * s[1] + kw * d[1], c},
                     context),
      AffineMap::get(8, 0, {fo, kh, kw, c, fi}, context),
      AffineMap::get(8, 0, {n, oh, ow, fo, fi}, context)};
  SmallVector<utils::IteratorType> iterators(5, utils::IteratorType::parallel);
  iterators.append(3, utils::IteratorType::reduction);
  auto generic =
      linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()},
                                ValueRange{conv.getDpsInputs()[0], filter},
                                ValueRange{init}, maps, iterators);
  rewriter.cloneRegionBefore(conv->getRegion(0), generic.getRegion(),
                             generic.getRegion().end());
  Value result = kiln::collapsePanels(rewriter, loc, generic.getResult(0),
                                      shape[3], conv.getResultTypes()[0]);
  rewriter.replaceOp(conv, result);
}

namespace {
struct PackConvolutionFiltersPass
    : public kiln::impl::PackConvolutionFiltersPassBase<
          PackConvolutionFiltersPass> {
  using PackConvolutionFiltersPassBase::PackConvolutionFiltersPassBase;

  LogicalResult initialize(MLIRContext *context) override {
    panel = kiln::resolveWeightPanelBytes(context, panelBytes, targets, cpus,
                                          cpuFeatures);
    return success();
  }

  void runOnOperation() override {
    if (panel <= 0)
      return;
    SmallVector<std::pair<linalg::Conv2DNhwcHwcfOp, PackableFilter>> convs;
    getOperation()->walk([&](linalg::Conv2DNhwcHwcfOp conv) {
      if (std::optional<PackableFilter> packable =
              getPackableFilter(conv, panel, minRowBytes, minFilterBytes))
        convs.emplace_back(conv, *packable);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[conv, packable] : convs)
      packFilter(rewriter, conv, packable);
  }

  int64_t panel = 0;
};
} // namespace
