//===- Convolution.cpp - ONNX's convolutions and pooling ------------------===//
//
// Conv as linalg's NCHW convolutions (conv_2d_nchw_fchw, the depthwise and
// grouped forms), which global optimization turns channels-last for the
// CPU pipeline, 1-D ones as 2-D of height 1, 3-D as conv_3d_ncdhw_fcdhw
// (one per group when grouped);
// padding as a tensor.pad of zeros. ConvTranspose as a convolution of the
// input spread out by the strides with the flipped filter.
//
//===----------------------------------------------------------------------===//

#include "Window.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// `input` (N, C, spatial...) convolved with `filter` (F, C / groups,
/// kernel...) into `type` by `window`, zero padding included: linalg's
/// NCHW convolutions (plain, depthwise, grouped) in 1-D (as 2-D) and 2-D,
/// conv_3d_ncdhw_fcdhw in 3-D.
static FailureOr<Value> buildConvolution(NodeConverter &node, Value input,
                                         Value filter, RankedTensorType type,
                                         Window window, int64_t g) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type element = type.getElementType();
  int64_t rank = type.getRank();
  RankedTensorType resultType = type;
  if (rank == 3) {
    input = addUnitHeight(b, loc, input);
    filter = addUnitHeight(b, loc, filter);
    resultType = addUnitHeight(type);
    window.addUnitHeight(b);
  }
  Value unpadded = input;
  input = padSpatial(b, loc, input, window, b.getZeroAttr(element));
  auto strides = b.getI64TensorAttr(window.strides);
  auto dilations = b.getI64TensorAttr(window.dilations);
  auto inType = cast<RankedTensorType>(input.getType());
  auto fType = cast<RankedTensorType>(filter.getType());
  int64_t channels = inType.getDimSize(1), features = fType.getDimSize(0);
  if (g < 1 || channels % g || features % g ||
      fType.getDimSize(1) * g != channels)
    return node.error() << "group " << g << " does not divide " << channels
                        << " input channels and " << features << " filters",
           failure();
  // The result's sizes (N, F, spatial...); `features` replaces F for a
  // group's part.
  auto resultSizes = [&](int64_t featureCount) {
    return getWindowResultSizes(b, loc, unpadded, b.getIndexAttr(featureCount),
                                window);
  };
  Value result;
  if (rank == 5) {
    // Grouped: one conv_3d per group over its slices of the channels and
    // filters, inserted into the result at the group's features.
    Value init = createFilled(b, loc, resultType, b.getZeroAttr(element),
                              resultSizes(features));
    int64_t groupChannels = channels / g, groupFeatures = features / g;
    auto sliceChannels = [&](Value value, int64_t offset, int64_t size) {
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<OpFoldResult> offsets(5, b.getIndexAttr(0)), sizes;
      offsets[1] = b.getIndexAttr(offset);
      for (int64_t d = 0; d < 5; ++d)
        sizes.push_back(d == 1 ? OpFoldResult(b.getIndexAttr(size))
                        : type.isDynamicDim(d)
                            ? OpFoldResult(getDimSize(b, loc, value, d))
                            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
      return std::make_pair(offsets, sizes);
    };
    result = init;
    for (int64_t group = 0; group < g; ++group) {
      auto [inOffsets, inSizes] =
          sliceChannels(input, group * groupChannels, groupChannels);
      Value groupInput = tensor::ExtractSliceOp::create(
          b, loc, input, inOffsets, inSizes,
          SmallVector<OpFoldResult>(5, b.getIndexAttr(1)));
      SmallVector<OpFoldResult> fOffsets(5, b.getIndexAttr(0));
      fOffsets[0] = b.getIndexAttr(group * groupFeatures);
      SmallVector<OpFoldResult> fSizes = {b.getIndexAttr(groupFeatures)};
      for (int64_t d = 1; d < 5; ++d)
        fSizes.push_back(b.getIndexAttr(fType.getDimSize(d)));
      Value groupFilter = tensor::ExtractSliceOp::create(
          b, loc, filter, fOffsets, fSizes,
          SmallVector<OpFoldResult>(5, b.getIndexAttr(1)));
      SmallVector<int64_t> groupShape(resultType.getShape());
      groupShape[1] = groupFeatures;
      auto groupType = resultType.clone(groupShape);
      Value groupInit = createFilled(b, loc, groupType, b.getZeroAttr(element),
                                     resultSizes(groupFeatures));
      Value groupResult =
          linalg::Conv3DNcdhwFcdhwOp::create(
              b, loc, groupType, ValueRange{groupInput, groupFilter}, groupInit,
              strides, dilations)
              .getResult(0);
      if (g == 1) {
        result = groupResult;
        break;
      }
      auto [outOffsets, outSizes] =
          sliceChannels(result, group * groupFeatures, groupFeatures);
      result = tensor::InsertSliceOp::create(
          b, loc, groupResult, result, outOffsets, outSizes,
          SmallVector<OpFoldResult>(5, b.getIndexAttr(1)));
    }
  } else if (g == 1) {
    Value init = createFilled(b, loc, resultType, b.getZeroAttr(element),
                              resultSizes(features));
    result = linalg::Conv2DNchwFchwOp::create(b, loc, resultType,
                                              ValueRange{input, filter}, init,
                                              strides, dilations)
                 .getResult(0);
  } else if (g == channels && g == features) {
    // Depthwise: the filter's single input channel dropped.
    auto depthFilter = RankedTensorType::get(
        {features, fType.getDimSize(2), fType.getDimSize(3)}, element);
    Value init = createFilled(b, loc, resultType, b.getZeroAttr(element),
                              resultSizes(features));
    result = linalg::DepthwiseConv2DNchwChwOp::create(
                 b, loc, resultType,
                 ValueRange{input, reshapeTo(b, loc, filter, depthFilter)},
                 init, strides, dilations)
                 .getResult(0);
  } else {
    // Grouped: N(G C)HW and (G F)CHW split into groups.
    auto groupedInput =
        RankedTensorType::get({inType.getDimSize(0), g, channels / g,
                               inType.getDimSize(2), inType.getDimSize(3)},
                              element);
    auto groupedFilter =
        RankedTensorType::get({g, features / g, fType.getDimSize(1),
                               fType.getDimSize(2), fType.getDimSize(3)},
                              element);
    auto groupedResult = RankedTensorType::get(
        {resultType.getDimSize(0), g, features / g, resultType.getDimSize(2),
         resultType.getDimSize(3)},
        element);
    SmallVector<OpFoldResult> groupedSizes = resultSizes(features);
    groupedSizes[1] = b.getIndexAttr(features / g);
    groupedSizes.insert(groupedSizes.begin() + 1, b.getIndexAttr(g));
    Value init = createFilled(b, loc, groupedResult, b.getZeroAttr(element),
                              groupedSizes);
    Value grouped = linalg::Conv2DNgchwGfchwOp::create(
                        b, loc, groupedResult,
                        ValueRange{reshapeTo(b, loc, input, groupedInput),
                                   reshapeTo(b, loc, filter, groupedFilter)},
                        init, strides, dilations)
                        .getResult(0);
    result = reshapeTo(b, loc, grouped, resultType);
  }
  if (rank == 3)
    result = reshapeTo(b, loc, result, type);
  return result;
}

/// `result` plus input 2 of `node` (one bias per output channel), if
/// given.
static Value addBias(NodeConverter &node, Value result, RankedTensorType type) {
  if (!node.hasInput(2))
    return result;
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type element = type.getElementType();
  Value bias = node.input(2);
  int64_t outRank = type.getRank();
  AffineMap channelMap = AffineMap::get(outRank, 0, b.getAffineDimExpr(1));
  Value init = createFilled(b, loc, type, b.getZeroAttr(element), result);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{result, bias},
             ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(outRank), channelMap,
                                 b.getMultiDimIdentityMap(outRank)},
             SmallVector<utils::IteratorType>(outRank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value sum = arith::AddFOp::create(nb, l, args[0], args[1]);
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

FailureOr<Value> onnx_plugin::buildConv(NodeConverter &node, Value input,
                                        Value filter, RankedTensorType type) {
  if (failed(node.checkAttributes({"auto_pad", "dilations", "group",
                                   "kernel_shape", "pads", "strides"})))
    return failure();
  auto inputType = dyn_cast<RankedTensorType>(input.getType());
  auto filterType = dyn_cast<RankedTensorType>(filter.getType());
  FailureOr<int64_t> groups = node.getInt("group", 1);
  if (failed(groups))
    return failure();
  if (!inputType || !filterType)
    return node.error() << "the ranks of its input and filter must be known",
           failure();
  int64_t rank = inputType.getRank();
  if (rank != 3 && rank != 4 && rank != 5)
    return node.error() << "only 1-D, 2-D and 3-D convolutions are "
                           "supported (the input has rank "
                        << rank << ")",
           failure();
  // Any size may be dynamic but the filter's and the channels.
  if (!filterType.hasStaticShape() || inputType.isDynamicDim(1))
    return node.error() << "its filter's shape and its input's channel count "
                           "must be static",
           failure();
  FailureOr<Window> window =
      readWindow(node, input, type.getShape().drop_front(2),
                 filterType.getShape().drop_front(2));
  if (failed(window))
    return failure();
  return buildConvolution(node, input, filter, type, *window, *groups);
}

static LogicalResult convertConv(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<Value> result =
      buildConv(node, node.input(0), node.input(1), *type);
  if (failed(result))
    return failure();
  results.push_back(addBias(node, *result, *type));
  return success();
}

/// ConvTranspose as a convolution: the input spread `strides` apart with
/// zeros between, padded by the kernel's extent less the pads, convolved
/// with stride 1 by the filter flipped along its spatial dims and with its
/// two channel dims swapped within each group.
static LogicalResult convertConvTranspose(NodeConverter &node,
                                          SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"auto_pad", "dilations", "group",
                                   "kernel_shape", "output_padding",
                                   "output_shape", "pads", "strides"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> filterType = node.getRankedInputType(1);
  FailureOr<int64_t> groups = node.getInt("group", 1);
  FailureOr<std::string> autoPad = node.getString("auto_pad", "NOTSET");
  if (failed(type) || failed(inputType) || failed(filterType) ||
      failed(groups) || failed(autoPad))
    return failure();
  int64_t rank = inputType->getRank(), spatial = rank - 2, g = *groups;
  if (rank < 3 || rank > 5)
    return node.error() << "only 1-D, 2-D and 3-D transposed convolutions "
                           "are supported",
           failure();
  if (!filterType->hasStaticShape() || inputType->isDynamicDim(1))
    return node.error() << "its filter's shape and its input's channel count "
                           "must be static",
           failure();
  if (g < 1 || filterType->getDimSize(0) != inputType->getDimSize(1) ||
      inputType->getDimSize(1) % g)
    return node.error() << "group " << g << " does not divide the "
                        << inputType->getDimSize(1) << " input channels",
           failure();
  auto readInts = [&](StringRef name,
                      int64_t fallback) -> FailureOr<SmallVector<int64_t>> {
    auto values = node.getInts(name);
    if (failed(values))
      return failure();
    int64_t count = name == "pads" ? 2 * spatial : spatial;
    SmallVector<int64_t> result =
        *values ? **values : SmallVector<int64_t>(count, fallback);
    if (static_cast<int64_t>(result.size()) != count)
      return node.error() << "attribute '" << name << "' has " << result.size()
                          << " values, expected " << count,
             failure();
    return result;
  };
  auto strides = readInts("strides", 1), dilations = readInts("dilations", 1),
       pads = readInts("pads", 0),
       outputPadding = readInts("output_padding", 0);
  if (failed(strides) || failed(dilations) || failed(pads) ||
      failed(outputPadding))
    return failure();
  bool fromShape = node.getAttribute("output_shape") ||
                   *autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER";

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type element = type->getElementType();
  Window window;
  SizeMath math(b, loc);
  Value input = node.input(0);
  SmallVector<OpFoldResult> spread = {math.dim(input, 0), math.dim(input, 1)};
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t kernel = filterType->getDimSize(2 + d);
    int64_t stride = (*strides)[d], dilation = (*dilations)[d];
    if (stride < 1 || dilation < 1)
      return node.error() << "strides and dilations must be positive",
             failure();
    int64_t extent = (kernel - 1) * dilation + 1;
    int64_t begin = (*pads)[d], end = (*pads)[d + spatial];
    OpFoldResult in = math.dim(input, 2 + d);
    if (fromShape) {
      // The pads that make the inferred output size (output_shape's, or
      // the input's times the stride for SAME): stride * (in - 1) +
      // output_padding + extent - out, which does not depend on `in` when
      // the output is a multiple of it.
      int64_t out = type->getDimSize(2 + d);
      int64_t total;
      if (!ShapedType::isDynamic(out) && !inputType->isDynamicDim(2 + d))
        total = stride * (inputType->getDimSize(2 + d) - 1) +
                (*outputPadding)[d] + extent - out;
      else if (node.getAttribute("output_shape"))
        return node.error() << "output_shape needs static spatial sizes",
               failure();
      else
        total = (*outputPadding)[d] + extent - stride;
      // Floor division, as ONNX's reference: a negative total (an output
      // longer than the input reaches) pads the end.
      int64_t half = llvm::divideFloorSigned(total, 2);
      begin = *autoPad == "SAME_UPPER" ? half : total - half;
      end = total - begin;
    }
    int64_t low = extent - 1 - begin;
    int64_t high = extent - 1 - end + (*outputPadding)[d];
    if (low < 0 || high < 0)
      return node.error() << "pads larger than the kernel's extent are not "
                             "supported",
             failure();
    // The input spread out to (in - 1) * stride + 1, padded by low and
    // high, convolved with stride 1.
    OpFoldResult spreadSize = math.add(
        math.mul(math.sub(in, math.constant(1)), stride), math.constant(1));
    spread.push_back(spreadSize);
    window.kernel.push_back(kernel);
    window.strides.push_back(1);
    window.dilations.push_back(dilation);
    window.padBegin.push_back(b.getIndexAttr(low));
    window.padEnd.push_back(b.getIndexAttr(high));
    window.explicitPadEnd.push_back(b.getIndexAttr(high));
    window.outSizes.push_back(
        math.add(spreadSize, math.constant(low + high - extent + 1)));
  }
  // The input spread out: inserted `stride` apart into zeros.
  if (llvm::any_of(*strides, [](int64_t s) { return s > 1; })) {
    SmallVector<int64_t> spreadShape;
    for (OpFoldResult size : spread)
      spreadShape.push_back(
          getConstantIntValue(size).value_or(ShapedType::kDynamic));
    auto spreadType = RankedTensorType::get(spreadShape, element);
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
        steps(rank, b.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(math.dim(input, d));
      if (d >= 2)
        steps[d] = b.getIndexAttr((*strides)[d - 2]);
    }
    input = tensor::InsertSliceOp::create(
        b, loc, input,
        createFilled(b, loc, spreadType, b.getZeroAttr(element), spread),
        offsets, sizes, steps);
  }
  // The filter (G C, F, k...) as (G F, C, k...), flipped along k; one
  // group needs no regrouping (reshapes beside the flip trip fusion).
  int64_t channels = filterType->getDimSize(0) / g;
  int64_t features = filterType->getDimSize(1);
  SmallVector<int64_t> kernelShape(filterType->getShape().drop_front(2));
  int64_t lead = g == 1 ? 2 : 3;
  SmallVector<int64_t> groupedShape = {channels, features};
  SmallVector<int64_t> swappedShape = {features, channels};
  SmallVector<AffineExpr> readExprs = {b.getAffineDimExpr(1),
                                       b.getAffineDimExpr(0)};
  if (g != 1) {
    groupedShape.insert(groupedShape.begin(), g);
    swappedShape.insert(swappedShape.begin(), g);
    readExprs = {b.getAffineDimExpr(0), b.getAffineDimExpr(2),
                 b.getAffineDimExpr(1)};
  }
  groupedShape.append(kernelShape);
  swappedShape.append(kernelShape);
  Value grouped = reshapeTo(b, loc, node.input(1),
                            RankedTensorType::get(groupedShape, element));
  for (int64_t d = 0; d < spatial; ++d)
    readExprs.push_back(b.getAffineConstantExpr(kernelShape[d] - 1) -
                        b.getAffineDimExpr(lead + d));
  auto swappedType = RankedTensorType::get(swappedShape, element);
  AffineMap readMap =
      AffineMap::get(lead + spatial, 0, readExprs, b.getContext());
  Value swappedInit = createFilled(b, loc, swappedType, b.getZeroAttr(element));
  // 2-D: a copy whose reversed reads global optimization folds into the
  // channels-last convolution. 1-D and 3-D keep the copy as a dispatch of
  // its own, and CPU tiling cannot slice an operand read through `k - 1 -
  // d`: there each element is gathered at its index instead.
  Value swapped =
      spatial == 2
          ? buildCopy(b, loc, swappedType, grouped, swappedInit, readMap)
          : linalg::GenericOp::create(
                b, loc, TypeRange{swappedType}, ValueRange{},
                ValueRange{swappedInit},
                ArrayRef<AffineMap>{b.getMultiDimIdentityMap(lead + spatial)},
                getParallelIterators(lead + spatial),
                [&](OpBuilder &nb, Location l, ValueRange) {
                  // readMap's results: dims, then kernel - 1 - dim.
                  SmallVector<Value> position;
                  for (AffineExpr expr : readMap.getResults()) {
                    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
                      position.push_back(
                          linalg::IndexOp::create(nb, l, dim.getPosition()));
                      continue;
                    }
                    int64_t d = position.size() - lead;
                    position.push_back(arith::SubIOp::create(
                        nb, l,
                        arith::ConstantIndexOp::create(nb, l,
                                                       kernelShape[d] - 1),
                        linalg::IndexOp::create(nb, l, lead + d)));
                  }
                  linalg::YieldOp::create(
                      nb, l,
                      tensor::ExtractOp::create(nb, l, grouped, position)
                          .getResult());
                })
                .getResult(0);
  SmallVector<int64_t> filterShape = {g * features, channels};
  filterShape.append(kernelShape);
  Value filter =
      reshapeTo(b, loc, swapped, RankedTensorType::get(filterShape, element));
  FailureOr<Value> result =
      buildConvolution(node, input, filter, *type, window, g);
  if (failed(result))
    return failure();
  results.push_back(addBias(node, *result, *type));
  return success();
}

void onnx_plugin::addConvolutionConverters(ConverterTable &table) {
  table["Conv"] = {convertConv};
  table["ConvTranspose"] = {convertConvTranspose};
}
