//===- Resize.cpp - ONNX's Resize (and Upsample's successor) --------------===//
//
// Resize in nearest and linear modes as one linalg.generic over the
// output: each output index is mapped back to an input coordinate by the
// coordinate transformation mode, then rounded (nearest) or blended from
// the neighbouring elements of every resized dim (linear), reads clamped
// to the input's edges as ONNX's reference does. Cubic and
// tf_crop_and_resize are not converted.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
struct ResizeAttributes {
  std::string mode, transform, nearest;
};
} // namespace

/// The input coordinate of output index `index` along one dim.
static Value mapCoordinate(OpBuilder &b, Location loc, Value index,
                           const ResizeAttributes &attributes, Value scale,
                           int64_t inSize, int64_t outSize) {
  Type f32 = b.getF32Type();
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  Value x = arith::UIToFPOp::create(
      b, loc, f32, arith::IndexCastOp::create(b, loc, b.getI64Type(), index));
  const std::string &mode = attributes.transform;
  if (mode == "asymmetric")
    return arith::DivFOp::create(b, loc, x, scale);
  if (mode == "align_corners") {
    // x * (in - 1) / (in * scale - 1), 0 where the resized length is 1.
    Value resized = arith::MulFOp::create(
        b, loc, constant(static_cast<double>(inSize)), scale);
    Value denominator = arith::SubFOp::create(b, loc, resized, constant(1));
    Value ratio = arith::DivFOp::create(
        b, loc, constant(static_cast<double>(inSize - 1)), denominator);
    Value single = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE,
                                         denominator, constant(0));
    Value mapped = arith::MulFOp::create(b, loc, x, ratio);
    return arith::SelectOp::create(b, loc, single, constant(0), mapped);
  }
  if (mode == "tf_half_pixel_for_nn")
    return arith::DivFOp::create(
        b, loc, arith::AddFOp::create(b, loc, x, constant(0.5)), scale);
  if (mode == "pytorch_half_pixel" && outSize == 1)
    return constant(0);
  // half_pixel (and pytorch_half_pixel): (x + 0.5) / scale - 0.5.
  Value shifted = arith::AddFOp::create(b, loc, x, constant(0.5));
  return arith::SubFOp::create(
      b, loc, arith::DivFOp::create(b, loc, shifted, scale), constant(0.5));
}

/// `value` (f32) as an index clamped to [0, size).
static Value clampIndex(OpBuilder &b, Location loc, Value value, int64_t size) {
  Value integer = arith::FPToSIOp::create(b, loc, b.getI64Type(), value);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value last = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(size - 1));
  integer = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, integer, zero), last);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), integer);
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
  ResizeAttributes attributes{*mode, *transform, *nearest};
  if (*mode != "nearest" && *mode != "linear")
    return node.error() << "mode '" << *mode << "' is not supported", failure();
  if (*transform != "half_pixel" && *transform != "pytorch_half_pixel" &&
      *transform != "align_corners" && *transform != "asymmetric" &&
      *transform != "tf_half_pixel_for_nn")
    return node.error() << "coordinate_transformation_mode '" << *transform
                        << "' is not supported",
           failure();
  if (*nearest != "round_prefer_floor" && *nearest != "round_prefer_ceil" &&
      *nearest != "floor" && *nearest != "ceil")
    return node.error() << "nearest_mode '" << *nearest << "' is unknown",
           failure();
  if (!inputType->hasStaticShape() || !type->hasStaticShape())
    return node.error() << "its shapes must be static (constant scales or "
                           "sizes)",
           failure();
  int64_t rank = type->getRank();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  // The scales (f32): given (constant or read at run time), or the sizes'
  // ratios.
  SmallVector<Value> scales;
  int64_t given =
      node.hasInput(2)
          ? cast<RankedTensorType>(node.input(2).getType()).getDimSize(0)
          : 0;
  if (given != 0 && given != rank)
    return node.error() << "it has " << given << " scales for rank " << rank,
           failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (given == rank) {
      Value position = arith::ConstantIndexOp::create(b, loc, d);
      Value value = tensor::ExtractOp::create(b, loc, node.input(2), position);
      scales.push_back(castScalar(b, loc, value, b.getF32Type(), false, false));
      continue;
    }
    scales.push_back(arith::ConstantOp::create(
        b, loc,
        b.getF32FloatAttr(static_cast<double>(type->getDimSize(d)) /
                          inputType->getDimSize(d))));
  }
  Value input = node.input(0);
  Type element = type->getElementType();
  bool linear = *mode == "linear";
  if (linear && !isa<FloatType>(element))
    return node.error() << "linear mode needs a float input", failure();
  Value init =
      tensor::EmptyOp::create(b, loc, type->getShape(), type->getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange) {
        // Per dim: the low and high input index and the high one's weight.
        SmallVector<Value> low, high, weights;
        SmallVector<int64_t> blended;
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(nb, l, d);
          int64_t inSize = inputType->getDimSize(d);
          int64_t outSize = type->getDimSize(d);
          if (inSize == outSize) {
            low.push_back(index);
            high.push_back(index);
            weights.push_back(nullptr);
            continue;
          }
          Value x = mapCoordinate(nb, l, index, attributes, scales[d], inSize,
                                  outSize);
          if (!linear) {
            Value half =
                arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0.5));
            Value rounded =
                attributes.nearest == "floor"
                    ? math::FloorOp::create(nb, l, x).getResult()
                : attributes.nearest == "ceil"
                    ? math::CeilOp::create(nb, l, x).getResult()
                : attributes.nearest == "round_prefer_ceil"
                    ? math::FloorOp::create(
                          nb, l, arith::AddFOp::create(nb, l, x, half))
                          .getResult()
                    : math::CeilOp::create(
                          nb, l, arith::SubFOp::create(nb, l, x, half))
                          .getResult();
            Value at = clampIndex(nb, l, rounded, inSize);
            low.push_back(at);
            high.push_back(at);
            weights.push_back(nullptr);
            continue;
          }
          Value floor = math::FloorOp::create(nb, l, x);
          Value one = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(1));
          low.push_back(clampIndex(nb, l, floor, inSize));
          high.push_back(clampIndex(
              nb, l, arith::AddFOp::create(nb, l, floor, one), inSize));
          weights.push_back(arith::SubFOp::create(nb, l, x, floor));
          blended.push_back(d);
        }
        // Linear: the corners of every blended dim, weighted.
        Type f32 = nb.getF32Type();
        Value sum;
        int64_t corners = int64_t(1) << blended.size();
        for (int64_t corner = 0; corner < corners; ++corner) {
          SmallVector<Value> position(low);
          Value weight;
          for (auto [bit, d] : llvm::enumerate(blended)) {
            bool upper = (corner >> bit) & 1;
            position[d] = upper ? high[d] : low[d];
            Value one = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(1));
            Value w =
                upper
                    ? weights[d]
                    : arith::SubFOp::create(nb, l, one, weights[d]).getResult();
            weight = weight
                         ? arith::MulFOp::create(nb, l, weight, w).getResult()
                         : w;
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
        if (!blended.empty())
          sum = castScalar(nb, l, sum, element, false, false);
        linalg::YieldOp::create(nb, l, sum);
      });
  results.push_back(generic.getResult(0));
  return success();
}

void onnx_plugin::addResizeConverters(ConverterTable &table) {
  table["Resize"] = {convertResize};
}
