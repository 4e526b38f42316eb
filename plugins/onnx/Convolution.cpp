//===- Convolution.cpp - ONNX's convolutions and pooling ------------------===//
//
// Conv as linalg's NCHW convolutions (conv_2d_nchw_fchw, the depthwise and
// grouped forms), which global optimization turns channels-last for the
// CPU pipeline; 1-D convolutions and pools as 2-D ones of height 1.
// Padding is a tensor.pad of zeros (of -inf for MaxPool); auto_pad and
// ceil_mode become explicit pads. AveragePool divides a sum pool by the
// count of elements each window covers; global pools are reductions.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// A window's geometry along each spatial dim.
struct Window {
  SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd;
};
} // namespace

/// Reads kernel_shape (or `kernel` from the filter), strides, dilations,
/// pads and auto_pad for an input of spatial sizes `sizes` (static) whose
/// results have spatial sizes `outSizes`; `ceil_mode` and uneven strides
/// add end padding so that every output window is inside the padded
/// input.
static FailureOr<Window> readWindow(NodeConverter &node,
                                    ArrayRef<int64_t> sizes,
                                    ArrayRef<int64_t> outSizes,
                                    ArrayRef<int64_t> kernel) {
  int64_t rank = sizes.size();
  Window window;
  auto readInts = [&](StringRef name, int64_t fallback,
                      SmallVector<int64_t> &into, int64_t count) {
    auto values = node.getInts(name);
    if (failed(values))
      return false;
    into = *values ? **values : SmallVector<int64_t>(count, fallback);
    if (static_cast<int64_t>(into.size()) != count) {
      node.error() << "attribute '" << name << "' has " << into.size()
                   << " values, expected " << count;
      return false;
    }
    return true;
  };
  SmallVector<int64_t> pads;
  if (!readInts("kernel_shape", 1, window.kernel, rank) ||
      !readInts("strides", 1, window.strides, rank) ||
      !readInts("dilations", 1, window.dilations, rank) ||
      !readInts("pads", 0, pads, 2 * rank))
    return failure();
  if (!node.getAttribute("kernel_shape")) {
    if (kernel.empty())
      return node.error() << "attribute 'kernel_shape' is missing", failure();
    window.kernel.assign(kernel.begin(), kernel.end());
  }
  FailureOr<std::string> autoPad = node.getString("auto_pad", "NOTSET");
  if (failed(autoPad))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (window.strides[d] < 1 || window.dilations[d] < 1 ||
        window.kernel[d] < 1)
      return node.error() << "strides, dilations and kernel sizes must be "
                             "positive",
             failure();
    if (ShapedType::isDynamic(sizes[d]) || ShapedType::isDynamic(outSizes[d]))
      return node.error() << "its spatial sizes must be static", failure();
    int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
    int64_t begin = pads[d], end = pads[d + rank];
    if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
      int64_t out = (sizes[d] + window.strides[d] - 1) / window.strides[d];
      int64_t total = std::max<int64_t>(
          (out - 1) * window.strides[d] + extent - sizes[d], 0);
      begin = *autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (*autoPad == "VALID") {
      begin = end = 0;
    } else if (*autoPad != "NOTSET") {
      return node.error() << "auto_pad '" << *autoPad << "' is unknown",
             failure();
    }
    if (begin < 0 || end < 0)
      return node.error() << "negative pads are not supported", failure();
    // The last output window must end inside the padded input (ceil_mode
    // reads past it).
    int64_t needed = (outSizes[d] - 1) * window.strides[d] + extent;
    end = std::max(end, needed - sizes[d] - begin);
    window.padBegin.push_back(begin);
    window.padEnd.push_back(end);
  }
  return window;
}

/// `input` padded by `window` along its last dims with `value`.
static Value padSpatial(OpBuilder &b, Location loc, Value input,
                        const Window &window, TypedAttr value) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t spatial = window.padBegin.size(), lead = type.getRank() - spatial;
  if (llvm::all_of(window.padBegin, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(window.padEnd, [](int64_t p) { return p == 0; }))
    return input;
  SmallVector<int64_t> low(lead, 0), high(lead, 0), shape(type.getShape());
  for (int64_t d = 0; d < spatial; ++d) {
    low.push_back(window.padBegin[d]);
    high.push_back(window.padEnd[d]);
    shape[lead + d] += window.padBegin[d] + window.padEnd[d];
  }
  Value fill = arith::ConstantOp::create(b, loc, value);
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<OpFoldResult> lowSizes, highSizes;
  for (auto [l, h] : llvm::zip(low, high)) {
    lowSizes.push_back(b.getIndexAttr(l));
    highSizes.push_back(b.getIndexAttr(h));
  }
  return tensor::PadOp::create(b, loc, paddedType, input, lowSizes, highSizes,
                               fill);
}

/// A 1-D NCW type as NC1W.
static RankedTensorType addUnitHeight(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.end() - 1, 1);
  return type.clone(shape);
}

static Value addUnitHeight(OpBuilder &b, Location loc, Value value) {
  return reshapeTo(b, loc, value,
                   addUnitHeight(cast<RankedTensorType>(value.getType())));
}

static Value filled(OpBuilder &b, Location loc, RankedTensorType type,
                    TypedAttr value) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

static LogicalResult convertConv(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"auto_pad", "dilations", "group",
                                   "kernel_shape", "pads", "strides"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> filterType = node.getRankedInputType(1);
  FailureOr<int64_t> groups = node.getInt("group", 1);
  if (failed(type) || failed(inputType) || failed(filterType) || failed(groups))
    return failure();
  int64_t rank = inputType->getRank();
  if (rank != 3 && rank != 4)
    return node.error() << "only 1-D and 2-D convolutions are supported "
                           "(the input has rank "
                        << rank << ")",
           failure();
  if (!inputType->hasStaticShape() || !filterType->hasStaticShape() ||
      !type->hasStaticShape())
    return node.error() << "its shapes must be static", failure();
  Window window;
  {
    FailureOr<Window> read = readWindow(
        node, inputType->getShape().drop_front(2),
        type->getShape().drop_front(2), filterType->getShape().drop_front(2));
    if (failed(read))
      return failure();
    window = *read;
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type element = type->getElementType();
  Value input = node.input(0), filter = node.input(1);
  RankedTensorType resultType = *type;
  if (rank == 3) {
    input = addUnitHeight(b, loc, input);
    filter = addUnitHeight(b, loc, filter);
    resultType = addUnitHeight(*type);
    for (SmallVector<int64_t> *v :
         {&window.kernel, &window.strides, &window.dilations, &window.padBegin,
          &window.padEnd})
      v->insert(v->begin(),
                v == &window.padBegin || v == &window.padEnd ? 0 : 1);
  }
  input = padSpatial(b, loc, input, window, b.getZeroAttr(element));
  auto strides = b.getI64TensorAttr(window.strides);
  auto dilations = b.getI64TensorAttr(window.dilations);
  auto inType = cast<RankedTensorType>(input.getType());
  auto fType = cast<RankedTensorType>(filter.getType());
  int64_t channels = inType.getDimSize(1), features = fType.getDimSize(0);
  int64_t g = *groups;
  if (g < 1 || channels % g || features % g ||
      fType.getDimSize(1) * g != channels)
    return node.error() << "group " << g << " does not divide " << channels
                        << " input channels and " << features << " filters",
           failure();
  Value result;
  if (g == 1) {
    Value init = filled(b, loc, resultType, b.getZeroAttr(element));
    result = linalg::Conv2DNchwFchwOp::create(b, loc, resultType,
                                              ValueRange{input, filter}, init,
                                              strides, dilations)
                 .getResult(0);
  } else if (g == channels && g == features) {
    // Depthwise: the filter's single input channel dropped.
    auto depthFilter = RankedTensorType::get(
        {features, fType.getDimSize(2), fType.getDimSize(3)}, element);
    Value init = filled(b, loc, resultType, b.getZeroAttr(element));
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
    Value init = filled(b, loc, groupedResult, b.getZeroAttr(element));
    Value grouped = linalg::Conv2DNgchwGfchwOp::create(
                        b, loc, groupedResult,
                        ValueRange{reshapeTo(b, loc, input, groupedInput),
                                   reshapeTo(b, loc, filter, groupedFilter)},
                        init, strides, dilations)
                        .getResult(0);
    result = reshapeTo(b, loc, grouped, resultType);
  }
  if (rank == 3)
    result = reshapeTo(b, loc, result, *type);
  if (node.hasInput(2)) {
    // The bias, one per output channel.
    Value bias = node.input(2);
    int64_t outRank = type->getRank();
    AffineMap channelMap = AffineMap::get(outRank, 0, b.getAffineDimExpr(1));
    Value init = filled(b, loc, *type, b.getZeroAttr(element));
    result =
        linalg::GenericOp::create(
            b, loc, TypeRange{*type}, ValueRange{result, bias},
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
  results.push_back(result);
  return success();
}

static LogicalResult convertPool(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  bool isMax = node.node.getOpType() == "MaxPool";
  if (failed(node.checkAttributes({"auto_pad", "ceil_mode", "count_include_pad",
                                   "dilations", "kernel_shape", "pads",
                                   "storage_order", "strides"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<int64_t> includePad = node.getInt("count_include_pad", 0);
  if (failed(type) || failed(inputType) || failed(includePad))
    return failure();
  if (node.getNumResults() > 1 && !node.node.getResult(1).use_empty())
    return node.error() << "MaxPool's Indices output is not supported",
           failure();
  int64_t rank = inputType->getRank();
  if (rank != 3 && rank != 4)
    return node.error() << "only 1-D and 2-D pools are supported (the input "
                           "has rank "
                        << rank << ")",
           failure();
  if (!inputType->hasStaticShape() || !type->hasStaticShape())
    return node.error() << "its shapes must be static", failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  FailureOr<Window> read = readWindow(node, inputType->getShape().drop_front(2),
                                      type->getShape().drop_front(2), {});
  if (failed(read))
    return failure();
  Window window = *read;
  // The explicit pads (what count_include_pad counts), before ceil_mode's.
  Window explicitPads = window;
  {
    FailureOr<Window> again =
        readWindow(node, inputType->getShape().drop_front(2),
                   SmallVector<int64_t>(rank - 2, 1), {});
    if (failed(again))
      return failure();
    explicitPads.padEnd = again->padEnd;
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  RankedTensorType resultType = *type;
  if (rank == 3) {
    input = addUnitHeight(b, loc, input);
    resultType = addUnitHeight(*type);
    for (Window *w : {&window, &explicitPads})
      for (SmallVector<int64_t> *v :
           {&w->kernel, &w->strides, &w->dilations, &w->padBegin, &w->padEnd})
        v->insert(v->begin(), v == &w->padBegin || v == &w->padEnd ? 0 : 1);
  }
  auto strides = b.getI64TensorAttr(window.strides);
  auto dilations = b.getI64TensorAttr(window.dilations);
  Value kernel = tensor::EmptyOp::create(b, loc, window.kernel, element);
  Value result;
  if (isMax) {
    TypedAttr lowest = getExtremeAttr(b, element, true, false);
    Value padded = padSpatial(b, loc, input, window, lowest);
    Value init = filled(b, loc, resultType, lowest);
    result = linalg::PoolingNchwMaxOp::create(b, loc, resultType,
                                              ValueRange{padded, kernel}, init,
                                              strides, dilations)
                 .getResult(0);
  } else {
    Value padded = padSpatial(b, loc, input, window, b.getZeroAttr(element));
    Value init = filled(b, loc, resultType, b.getZeroAttr(element));
    Value sum = linalg::PoolingNchwSumOp::create(b, loc, resultType,
                                                 ValueRange{padded, kernel},
                                                 init, strides, dilations)
                    .getResult(0);
    // What each window counts: a sum pool of ones over the input (and the
    // explicit pads with count_include_pad), a constant.
    auto inType = cast<RankedTensorType>(input.getType());
    auto onesType = RankedTensorType::get(
        {1, 1, inType.getDimSize(2), inType.getDimSize(3)}, element);
    Value ones = filled(b, loc, onesType, b.getOneAttr(element));
    if (*includePad) {
      ones = padSpatial(b, loc, ones, explicitPads, b.getOneAttr(element));
      Window rest = window;
      for (size_t d = 0; d < rest.padBegin.size(); ++d) {
        rest.padBegin[d] -= explicitPads.padBegin[d];
        rest.padEnd[d] -= explicitPads.padEnd[d];
      }
      ones = padSpatial(b, loc, ones, rest, b.getZeroAttr(element));
    } else {
      ones = padSpatial(b, loc, ones, window, b.getZeroAttr(element));
    }
    auto countType = RankedTensorType::get(
        {1, 1, resultType.getDimSize(2), resultType.getDimSize(3)}, element);
    Value counts = linalg::PoolingNchwSumOp::create(
                       b, loc, countType, ValueRange{ones, kernel},
                       filled(b, loc, countType, b.getZeroAttr(element)),
                       strides, dilations)
                       .getResult(0);
    result = buildElementwise(
        b, loc, resultType, ValueRange{sum, counts},
        [](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], args[1]);
        });
  }
  if (rank == 3)
    result = reshapeTo(b, loc, result, *type);
  results.push_back(result);
  if (node.getNumResults() > 1)
    results.push_back(nullptr);
  return success();
}

static LogicalResult convertGlobalPool(NodeConverter &node,
                                       SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  bool isMax = node.node.getOpType() == "GlobalMaxPool";
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  SmallVector<int64_t> spatial;
  for (int64_t d = 2; d < inputType->getRank(); ++d)
    spatial.push_back(d);
  Value reduced = reduce(
      b, loc, input, spatial,
      isMax ? getExtremeAttr(b, element, true, false) : b.getZeroAttr(element),
      [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
        return isMax ? arith::MaximumFOp::create(nb, l, x, acc).getResult()
                     : arith::AddFOp::create(nb, l, x, acc).getResult();
      });
  if (!isMax) {
    Value count = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d : spatial)
      count =
          arith::MulIOp::create(b, loc, count, getDimSize(b, loc, input, d));
    Value countValue = castScalar(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), count),
        element, true, false);
    reduced = buildElementwise(
        b, loc, cast<RankedTensorType>(reduced.getType()), reduced,
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], countValue);
        });
  }
  results.push_back(reshapeTo(b, loc, reduced, *type));
  return success();
}

void onnx_plugin::addConvolutionConverters(ConverterTable &table) {
  table["Conv"] = {convertConv};
  table["MaxPool"] = {convertPool};
  table["AveragePool"] = {convertPool};
  table["GlobalAveragePool"] = {convertGlobalPool};
  table["GlobalMaxPool"] = {convertGlobalPool};
}
