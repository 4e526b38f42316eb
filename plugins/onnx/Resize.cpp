//===- Resize.cpp - ONNX's Resize (and Upsample's successor) --------------===//
//
// Resize as one linalg.generic over the output: each output index is
// mapped back to an input coordinate by the coordinate transformation
// mode, then rounded (nearest) or blended from the neighbouring elements
// of every resized dim (two for linear, four with Keys' cubic kernel for
// cubic), reads clamped to the input's edges as ONNX's reference does;
// tf_crop_and_resize maps into a box of the input and writes the
// extrapolation value outside it.
//
//===----------------------------------------------------------------------===//

#include "Window.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
struct ResizeAttributes {
  std::string mode, transform, nearest;
  double cubicA = -0.75;
  bool excludeOutside = false;
};
} // namespace

/// The sizes of one resized dim as f32 values, and whether the output's
/// is 1 (an i1).
struct DimSizes {
  Value in, out, outIsOne;
};

/// The input coordinate of output index `index` along one dim.
static Value mapCoordinate(OpBuilder &b, Location loc, Value index,
                           const ResizeAttributes &attributes, Value scale,
                           const DimSizes &sizes, std::pair<Value, Value> roi) {
  Type f32 = b.getF32Type();
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  Value x = arith::UIToFPOp::create(
      b, loc, f32, arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
  const std::string &mode = attributes.transform;
  Value one = constant(1);
  if (mode == "tf_crop_and_resize") {
    // start (in - 1) + x (end - start) (in - 1) / (out - 1), or the
    // middle of the box where the output has one element.
    auto [start, end] = roi;
    Value last = arith::SubFOp::create(b, loc, sizes.in, one);
    Value extent = arith::SubFOp::create(b, loc, end, start);
    Value middle = arith::MulFOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, constant(0.5),
                              arith::AddFOp::create(b, loc, start, end)),
        last);
    Value step = arith::DivFOp::create(
        b, loc, arith::MulFOp::create(b, loc, extent, last),
        arith::SubFOp::create(b, loc, sizes.out, one));
    Value mapped = arith::AddFOp::create(
        b, loc, arith::MulFOp::create(b, loc, start, last),
        arith::MulFOp::create(b, loc, x, step));
    return arith::SelectOp::create(b, loc, sizes.outIsOne, middle, mapped);
  }
  if (mode == "asymmetric")
    return arith::DivFOp::create(b, loc, x, scale);
  if (mode == "align_corners") {
    // x * (in - 1) / (in * scale - 1), 0 where the resized length is 1.
    Value resized = arith::MulFOp::create(b, loc, sizes.in, scale);
    Value denominator = arith::SubFOp::create(b, loc, resized, one);
    Value ratio = arith::DivFOp::create(
        b, loc, arith::SubFOp::create(b, loc, sizes.in, one), denominator);
    Value single = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE,
                                         denominator, constant(0));
    Value mapped = arith::MulFOp::create(b, loc, x, ratio);
    return arith::SelectOp::create(b, loc, single, constant(0), mapped);
  }
  if (mode == "tf_half_pixel_for_nn")
    return arith::DivFOp::create(
        b, loc, arith::AddFOp::create(b, loc, x, constant(0.5)), scale);
  // half_pixel (and pytorch_half_pixel): (x + 0.5) / scale - 0.5.
  Value shifted = arith::AddFOp::create(b, loc, x, constant(0.5));
  Value mapped = arith::SubFOp::create(
      b, loc, arith::DivFOp::create(b, loc, shifted, scale), constant(0.5));
  if (mode == "pytorch_half_pixel")
    return arith::SelectOp::create(b, loc, sizes.outIsOne, constant(0), mapped);
  if (mode == "half_pixel_symmetric") {
    // Opset 19: half_pixel shifted so that the output stays centered on
    // the input when its size was rounded down: by in / 2 * (1 - out /
    // (in * scale)).
    Value adjustment = arith::DivFOp::create(
        b, loc, sizes.out, arith::MulFOp::create(b, loc, sizes.in, scale));
    Value offset = arith::MulFOp::create(
        b, loc, arith::MulFOp::create(b, loc, sizes.in, constant(0.5)),
        arith::SubFOp::create(b, loc, one, adjustment));
    return arith::AddFOp::create(b, loc, offset, mapped);
  }
  return mapped;
}

/// `value` (f32) as an index clamped to [0, size) (`size` an index).
static Value clampIndex(OpBuilder &b, Location loc, Value value, Value size) {
  Value integer = arith::FPToSIOp::create(b, loc, b.getI64Type(), value);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value last = arith::SubIOp::create(
      b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), size),
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(1)));
  integer = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, integer, zero), last);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), integer);
}

namespace {
/// An input index a resized dim reads, and its weight (f32; null when the
/// dim reads one element whole).
struct Tap {
  Value index, weight;
};
} // namespace

/// The taps of input coordinate `x` (f32) along a dim of `size` (an
/// index; `sizeF` as f32): the rounded index (nearest), the two
/// neighbours (linear), or the four around it with Keys' cubic weights
/// (cubic; without exclude_outside, reads past the edge read the edge).
static SmallVector<Tap> getTaps(OpBuilder &b, Location loc, Value x,
                                const ResizeAttributes &attributes, Value size,
                                Value sizeF) {
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  if (attributes.mode == "nearest") {
    Value half = constant(0.5);
    const std::string &rule = attributes.nearest;
    Value rounded =
        rule == "floor"  ? math::FloorOp::create(b, loc, x).getResult()
        : rule == "ceil" ? math::CeilOp::create(b, loc, x).getResult()
        : rule == "round_prefer_ceil"
            ? math::FloorOp::create(b, loc,
                                    arith::AddFOp::create(b, loc, x, half))
                  .getResult()
            : math::CeilOp::create(b, loc,
                                   arith::SubFOp::create(b, loc, x, half))
                  .getResult();
    return {{clampIndex(b, loc, rounded, size), nullptr}};
  }
  Value floor = math::FloorOp::create(b, loc, x);
  Value t = arith::SubFOp::create(b, loc, x, floor);
  auto at = [&](double offset) {
    return arith::AddFOp::create(b, loc, floor, constant(offset)).getResult();
  };
  if (attributes.mode == "linear")
    return {{clampIndex(b, loc, floor, size),
             arith::SubFOp::create(b, loc, constant(1), t)},
            {clampIndex(b, loc, at(1), size), t}};
  // Cubic: the kernel at distances 1 + t, t, 1 - t and 2 - t.
  double a = attributes.cubicA;
  auto mul = [&](Value p, Value q) {
    return arith::MulFOp::create(b, loc, p, q).getResult();
  };
  auto add = [&](Value p, double q) {
    return arith::AddFOp::create(b, loc, p, constant(q)).getResult();
  };
  // |s| <= 1: ((a + 2) s - (a + 3)) s^2 + 1.
  auto near = [&](Value s) {
    return add(mul(mul(add(mul(constant(a + 2), s), -(a + 3)), s), s), 1);
  };
  // 1 < |s| < 2: ((a s - 5a) s + 8a) s - 4a.
  auto far = [&](Value s) {
    return add(mul(add(mul(add(mul(constant(a), s), -5 * a), s), 8 * a), s),
               -4 * a);
  };
  Value oneMinusT = arith::SubFOp::create(b, loc, constant(1), t);
  SmallVector<Value> weights = {far(add(t, 1)), near(t), near(oneMinusT),
                                far(add(oneMinusT, 1))};
  SmallVector<Value> positions = {at(-1), floor, at(1), at(2)};
  if (attributes.excludeOutside) {
    // Weights of taps outside the input dropped, the rest renormalized.
    Value total = constant(0);
    for (auto [position, weight] : llvm::zip(positions, weights)) {
      Value inside = arith::AndIOp::create(
          b, loc,
          arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, position,
                                constant(0)),
          arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OLE, position,
              arith::SubFOp::create(b, loc, sizeF, constant(1))));
      weight = arith::SelectOp::create(b, loc, inside, weight, constant(0));
      total = arith::AddFOp::create(b, loc, total, weight);
    }
    for (Value &weight : weights)
      weight = arith::DivFOp::create(b, loc, weight, total);
  }
  SmallVector<Tap> taps;
  for (auto [position, weight] : llvm::zip(positions, weights))
    taps.push_back({clampIndex(b, loc, position, size), weight});
  return taps;
}

static LogicalResult convertResize(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes(
          {"coordinate_transformation_mode", "cubic_coeff_a", "exclude_outside",
           "extrapolation_value", "mode", "nearest_mode"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<std::string> mode = node.getString("mode", "nearest");
  FailureOr<std::string> transform =
      node.getString("coordinate_transformation_mode", "half_pixel");
  FailureOr<std::string> nearest =
      node.getString("nearest_mode", "round_prefer_floor");
  if (failed(type) || failed(inputType) || failed(mode) || failed(transform) ||
      failed(nearest))
    return failure();
  FailureOr<float> cubicA = node.getFloat("cubic_coeff_a", -0.75f);
  FailureOr<int64_t> excludeOutside = node.getInt("exclude_outside", 0);
  if (failed(cubicA) || failed(excludeOutside))
    return failure();
  ResizeAttributes attributes{*mode, *transform, *nearest, *cubicA,
                              *excludeOutside != 0};
  if (*mode != "nearest" && *mode != "linear" && *mode != "cubic")
    return node.error() << "mode '" << *mode << "' is not supported", failure();
  if (*transform != "half_pixel" && *transform != "pytorch_half_pixel" &&
      *transform != "half_pixel_symmetric" && *transform != "align_corners" &&
      *transform != "asymmetric" && *transform != "tf_half_pixel_for_nn" &&
      *transform != "tf_crop_and_resize")
    return node.error() << "coordinate_transformation_mode '" << *transform
                        << "' is not supported",
           failure();
  bool cropping = *transform == "tf_crop_and_resize";
  if (*nearest != "round_prefer_floor" && *nearest != "round_prefer_ceil" &&
      *nearest != "floor" && *nearest != "ceil")
    return node.error() << "nearest_mode '" << *nearest << "' is unknown",
           failure();
  int64_t rank = type->getRank();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Type f32 = b.getF32Type();
  auto toFloat = [&](Value index) -> Value {
    return arith::UIToFPOp::create(
        b, loc, f32, arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
  };
  auto readElement = [&](Value tensor, int64_t i) -> Value {
    Value position = arith::ConstantIndexOp::create(b, loc, i);
    return tensor::ExtractOp::create(b, loc, tensor, position);
  };
  // The scales (f32) or the output's sizes (input 3), whichever is given.
  auto countOf = [&](unsigned i) -> int64_t {
    if (!node.hasInput(i))
      return 0;
    auto countType = dyn_cast<RankedTensorType>(node.input(i).getType());
    return countType && countType.getRank() == 1 ? countType.getDimSize(0)
                                                 : ShapedType::kDynamic;
  };
  int64_t given = countOf(2), sized = countOf(3);
  if (given != 0 && given != rank)
    return node.error() << "it has " << given << " scales for rank " << rank,
           failure();
  if (sized != 0 && sized != rank)
    return node.error() << "it has " << sized << " sizes for rank " << rank,
           failure();
  // Per dim: the input's size and the output's (index values, and as f32),
  // the scale, and whether the dim is copied whole (a constant scale of 1
  // or equal static sizes).
  SizeMath math(b, loc);
  SmallVector<Value> scales, inSizes, outSizes;
  SmallVector<DimSizes> floatSizes;
  SmallVector<bool> whole;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t staticIn = inputType->getDimSize(d),
            staticOut = type->getDimSize(d);
    Value inSize = math.value(math.dim(input, d));
    Value scale, outSize;
    if (given == rank)
      scale =
          castScalar(b, loc, readElement(node.input(2), d), f32, false, false);
    // The output's size from the sizes given, else the scale (ONNX
    // Runtime's rounding: the product in f32, truncated).
    Value computed;
    if (sized == rank)
      computed = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                            readElement(node.input(3), d));
    else if (scale)
      computed = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          arith::FPToSIOp::create(
              b, loc, b.getI64Type(),
              arith::MulFOp::create(b, loc, toFloat(inSize), scale)));
    else
      return node.error() << "it has neither scales nor sizes", failure();
    if (ShapedType::isDynamic(staticOut)) {
      outSize = computed;
    } else {
      // A static size that shape inference took from the graph's
      // declarations, not from the scales or sizes: they must agree.
      outSize = arith::ConstantIndexOp::create(b, loc, staticOut);
      node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         computed, outSize),
                   "its output's dim " + Twine(d) + " is " + Twine(staticOut) +
                       " as declared, but its " +
                       (sized == rank ? "sizes" : "scales") + " make it {0}",
                   {computed});
    }
    Value inF = toFloat(inSize), outF = toFloat(outSize);
    if (!scale)
      scale = arith::DivFOp::create(b, loc, outF, inF);
    std::optional<double> constantScale;
    DenseFPElementsAttr constantScales;
    if (given == rank &&
        matchPattern(node.input(2), m_Constant(&constantScales)))
      constantScale = constantScales.getValues<APFloat>()[d].convertToDouble();
    whole.push_back(!cropping && ((!ShapedType::isDynamic(staticIn) &&
                                   staticIn == staticOut) ||
                                  (constantScale == 1.0 && sized != rank)));
    Value outIsOne =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, outSize,
                              arith::ConstantIndexOp::create(b, loc, 1));
    scales.push_back(scale);
    inSizes.push_back(inSize);
    outSizes.push_back(outSize);
    floatSizes.push_back({inF, outF, outIsOne});
  }
  // tf_crop_and_resize's box (input 1: starts, then ends, as fractions of
  // each dim), read where it is given.
  FailureOr<float> extrapolation = node.getFloat("extrapolation_value", 0.0f);
  if (failed(extrapolation))
    return failure();
  SmallVector<std::pair<Value, Value>> rois(rank);
  if (cropping) {
    auto roiType = dyn_cast<RankedTensorType>(node.input(1).getType());
    if (!node.hasInput(1) || !roiType || roiType.getRank() != 1 ||
        roiType.getDimSize(0) != 2 * rank)
      return node.error() << "tf_crop_and_resize needs a roi (input 1) of "
                          << 2 * rank << " elements",
             failure();
    auto read = [&](int64_t i) {
      Value position = arith::ConstantIndexOp::create(b, loc, i);
      Value value = tensor::ExtractOp::create(b, loc, node.input(1), position);
      return castScalar(b, loc, value, b.getF32Type(), false, false);
    };
    for (int64_t d = 0; d < rank; ++d)
      rois[d] = {read(d), read(rank + d)};
  }
  Type element = type->getElementType();
  if (*mode != "nearest" && !isa<FloatType>(element))
    return node.error() << *mode << " mode needs a float input", failure();
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (type->isDynamicDim(d))
      dynamicSizes.push_back(outSizes[d]);
  Value init = tensor::EmptyOp::create(b, loc, *type, dynamicSizes);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange) {
        // Per dim, the input indices it reads and their weights (none
        // when it reads one element whole).
        SmallVector<SmallVector<Tap>> taps;
        Value outside;
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(nb, l, d);
          if (whole[d]) {
            taps.push_back({{index, nullptr}});
            continue;
          }
          Value x = mapCoordinate(nb, l, index, attributes, scales[d],
                                  floatSizes[d], rois[d]);
          if (cropping) {
            // Outside the input: the extrapolation value.
            Value below = arith::CmpFOp::create(
                nb, l, arith::CmpFPredicate::OLT, x,
                arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0)));
            Value above = arith::CmpFOp::create(
                nb, l, arith::CmpFPredicate::OGT, x,
                arith::SubFOp::create(
                    nb, l, floatSizes[d].in,
                    arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(1))));
            Value out = arith::OrIOp::create(nb, l, below, above);
            outside =
                outside ? arith::OrIOp::create(nb, l, outside, out).getResult()
                        : out;
          }
          taps.push_back(
              getTaps(nb, l, x, attributes, inSizes[d], floatSizes[d].in));
        }
        // The sum over every combination of one tap per dim.
        Type f32 = nb.getF32Type();
        Value sum;
        int64_t combinations = 1;
        for (const SmallVector<Tap> &dimTaps : taps)
          combinations *= dimTaps.size();
        for (int64_t combination = 0; combination < combinations;
             ++combination) {
          SmallVector<Value> position;
          Value weight;
          int64_t rest = combination;
          for (const SmallVector<Tap> &dimTaps : taps) {
            const Tap &tap = dimTaps[rest % dimTaps.size()];
            rest /= dimTaps.size();
            position.push_back(tap.index);
            if (tap.weight)
              weight = weight ? arith::MulFOp::create(nb, l, weight, tap.weight)
                                    .getResult()
                              : tap.weight;
          }
          Value value = tensor::ExtractOp::create(nb, l, input, position);
          if (!weight) {
            sum = value;
            continue;
          }
          Value term = arith::MulFOp::create(
              nb, l, castScalar(nb, l, value, f32, false, false), weight);
          sum =
              sum ? arith::AddFOp::create(nb, l, sum, term).getResult() : term;
        }
        if (combinations > 1)
          sum = castScalar(nb, l, sum, element, false, false);
        if (outside)
          sum = arith::SelectOp::create(
              nb, l, outside,
              castScalar(nb, l,
                         arith::ConstantOp::create(
                             nb, l, nb.getF32FloatAttr(*extrapolation)),
                         element, false, false),
              sum);
        linalg::YieldOp::create(nb, l, sum);
      });
  results.push_back(generic.getResult(0));
  return success();
}

void onnx_plugin::addResizeConverters(ConverterTable &table) {
  table["Resize"] = {convertResize};
}
