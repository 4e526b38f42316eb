//===- Quantization.cpp - ONNX's linear quantization ----------------------===//
//
// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear as
// elementwise generics (scales and zero points per tensor or per axis,
// rounding half to even and saturating as ONNX does), and the integer
// contractions MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv as
// MatMul and Conv on 32-bit integers of the operands less their zero
// points, requantized in float where the op asks for it.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Whether result `i` of `node` is an unsigned ONNX integer.
static bool isUnsignedResult(NodeConverter &node, unsigned i) {
  return getElementTypeOrSelf(node.node.getResult(i).getType())
      .isUnsignedInteger();
}

/// The float range of the integer type `type`, unsigned or not.
static std::pair<double, double> getIntegerRange(Type type, bool isUnsigned) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (isUnsigned)
    return {0.0, static_cast<double>(APInt::getMaxValue(width).getZExtValue())};
  return {static_cast<double>(APInt::getSignedMinValue(width).getSExtValue()),
          static_cast<double>(APInt::getSignedMaxValue(width).getSExtValue())};
}

/// Input `i` of `node` (a scalar, or 1-D along `axis` of a rank-`rank`
/// operand, negative axes counted from the end) shaped to broadcast
/// numpy-style against that operand.
static FailureOr<Value> readAlongAxis(NodeConverter &node, unsigned i,
                                      int64_t axis, int64_t rank,
                                      StringRef what) {
  Value value = node.input(i);
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() > 1)
    return node.error() << what << " (input " << i
                        << ") must be a scalar or 1-D",
           failure();
  if (type.getRank() == 0)
    return value;
  FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank, "axis");
  if (failed(normalized))
    return failure();
  axis = *normalized;
  if (axis == rank - 1)
    return value;
  SmallVector<int64_t> shape(rank - axis, 1);
  shape[0] = type.getDimSize(0);
  if (ShapedType::isDynamic(shape[0]))
    return node.error() << what << " (input " << i
                        << ") must have a static size",
           failure();
  return reshapeTo(node.builder, node.getLoc(), value, type.clone(shape));
}

/// `value` with its integer elements widened to i32.
static Value widen(OpBuilder &b, Location loc, Value value, bool isUnsigned) {
  auto type = cast<RankedTensorType>(value.getType());
  return buildElementwise(b, loc, type.clone(b.getI32Type()), value,
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            return castScalar(nb, l, args[0], nb.getI32Type(),
                                              isUnsigned, false);
                          });
}

/// Input `i` (an integer tensor) as i32 less the zero point in input
/// `zeroPoint` (if given; a scalar, or 1-D along `axis`).
static FailureOr<Value> subtractZeroPoint(NodeConverter &node, unsigned i,
                                          unsigned zeroPoint, int64_t axis) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  auto type = dyn_cast<RankedTensorType>(node.input(i).getType());
  if (!type || !type.getElementType().isInteger(8))
    return node.error() << "input " << i << " must be a ranked 8-bit integer",
           failure();
  Value value = widen(b, loc, node.input(i), node.isUnsignedInput(i));
  if (!node.hasInput(zeroPoint))
    return value;
  FailureOr<Value> point =
      readAlongAxis(node, zeroPoint, axis, type.getRank(), "the zero point");
  if (failed(point))
    return failure();
  Value wide = widen(b, loc, *point, node.isUnsignedInput(zeroPoint));
  return buildElementwise(
      b, loc, type.clone(b.getI32Type()), {value, wide},
      [](OpBuilder &nb, Location l, ValueRange args) {
        return arith::SubIOp::create(nb, l, args[0], args[1]).getResult();
      });
}

/// `real` (a float scalar) quantized: rounded half to even, plus
/// `zeroPoint` (float), saturated to `type`'s range and converted.
static Value quantizeScalar(OpBuilder &b, Location loc, Value real,
                            Value zeroPoint, Type type, bool isUnsigned) {
  Type floatType = real.getType();
  auto [low, high] = getIntegerRange(type, isUnsigned);
  Value rounded = math::RoundEvenOp::create(b, loc, real);
  if (zeroPoint)
    rounded = arith::AddFOp::create(b, loc, rounded, zeroPoint);
  rounded = arith::MaximumFOp::create(b, loc, rounded,
                                      floatConstant(b, loc, floatType, low));
  rounded = arith::MinimumFOp::create(b, loc, rounded,
                                      floatConstant(b, loc, floatType, high));
  return castScalar(b, loc, rounded, type, false, isUnsigned);
}

/// The operands of QuantizeLinear and DequantizeLinear: x, the scale and
/// (if given) the zero point, the last two shaped to broadcast along
/// `axis` of the result `type`.
static FailureOr<SmallVector<Value>> readLinearOperands(NodeConverter &node,
                                                        RankedTensorType type) {
  if (failed(node.checkAttributes({"axis"})))
    return failure();
  FailureOr<int64_t> axis = node.getInt("axis", 1);
  if (failed(axis))
    return failure();
  SmallVector<Value> inputs = {node.input(0)};
  for (unsigned i : {1u, 2u}) {
    if (!node.hasInput(i))
      continue;
    FailureOr<Value> value =
        readAlongAxis(node, i, *axis, type.getRank(),
                      i == 1 ? "the scale" : "the zero point");
    if (failed(value))
      return failure();
    inputs.push_back(*value);
  }
  return inputs;
}

static LogicalResult convertQuantizeLinear(NodeConverter &node,
                                           SmallVectorImpl<Value> &results) {
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<SmallVector<Value>> inputs = readLinearOperands(node, *type);
  if (failed(inputs))
    return failure();
  Type element = type->getElementType();
  bool isUnsigned = isUnsignedResult(node, 0);
  bool zeroUnsigned = node.hasInput(2) && node.isUnsignedInput(2);
  bool inputUnsigned = node.isUnsignedInput(0);
  if (!element.isInteger(8))
    return node.error() << "it must quantize to an 8-bit integer", failure();
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *type, *inputs,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Type floatType = args[1].getType();
        Value x = castScalar(b, loc, args[0], floatType, inputUnsigned, false);
        Value real = arith::DivFOp::create(b, loc, x, args[1]);
        Value zeroPoint =
            args.size() > 2
                ? castScalar(b, loc, args[2], floatType, zeroUnsigned, false)
                : Value();
        return quantizeScalar(b, loc, real, zeroPoint, element, isUnsigned);
      }));
  return success();
}

static LogicalResult convertDequantizeLinear(NodeConverter &node,
                                             SmallVectorImpl<Value> &results) {
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<SmallVector<Value>> inputs = readLinearOperands(node, *type);
  if (failed(inputs))
    return failure();
  bool inputUnsigned = node.isUnsignedInput(0);
  bool zeroUnsigned = node.hasInput(2) && node.isUnsignedInput(2);
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *type, *inputs,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Type floatType = args[1].getType();
        Value x = castScalar(b, loc, args[0], floatType, inputUnsigned, false);
        if (args.size() > 2)
          x = arith::SubFOp::create(
              b, loc, x,
              castScalar(b, loc, args[2], floatType, zeroUnsigned, false));
        return arith::MulFOp::create(b, loc, x, args[1]).getResult();
      }));
  return success();
}

/// DynamicQuantizeLinear: uint8 with a scale and zero point that map
/// [min(0, min(x)), max(0, max(x))] onto [0, 255].
static LogicalResult
convertDynamicQuantizeLinear(NodeConverter &node,
                             SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value x = node.input(0);
  Type floatType = inputType->getElementType();
  if (!isa<FloatType>(floatType))
    return node.error() << "it needs a float input", failure();
  auto scalarType = RankedTensorType::get({}, floatType);
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, inputType->getRank()));
  // The range starts at 0 so that 0 is exact.
  auto fold = [&](bool max) {
    return reduce(b, loc, x, all, b.getFloatAttr(floatType, 0.0),
                  [&](OpBuilder &nb, Location l, Value element, Value acc) {
                    return max ? arith::MaximumFOp::create(nb, l, element, acc)
                                     .getResult()
                               : arith::MinimumFOp::create(nb, l, element, acc)
                                     .getResult();
                  });
  };
  Value low = fold(false), high = fold(true);
  Value scale = buildElementwise(
      b, loc, scalarType, {low, high},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value range = arith::SubFOp::create(nb, l, args[1], args[0]);
        return arith::DivFOp::create(nb, l, range,
                                     floatConstant(nb, l, floatType, 255.0))
            .getResult();
      });
  Type byte = b.getI8Type();
  // zero point = round(clip(0 - low / scale, 0, 255)).
  Value zeroPoint = buildElementwise(
      b, loc, scalarType.clone(byte), {low, scale},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value real = arith::DivFOp::create(nb, l, args[0], args[1]);
        real = arith::NegFOp::create(nb, l, real);
        return quantizeScalar(nb, l, real, Value(), byte, true);
      });
  Value y = buildElementwise(
      b, loc, *type, {x, scale, zeroPoint},
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value real = arith::DivFOp::create(nb, l, args[0], args[1]);
        Value point = castScalar(nb, l, args[2], floatType, true, false);
        return quantizeScalar(nb, l, real, point, byte, true);
      });
  results.append({y, scale, zeroPoint});
  return success();
}

/// The i32 matmul of inputs `lhs` and `rhs` less their zero points
/// (inputs `lhsZero` and `rhsZero`, if given): A's per row (its
/// second-to-last dim), B's per column.
static FailureOr<Value> multiplyIntegers(NodeConverter &node, unsigned lhs,
                                         unsigned lhsZero, unsigned rhs,
                                         unsigned rhsZero,
                                         RankedTensorType type) {
  FailureOr<RankedTensorType> lhsType = node.getRankedInputType(lhs);
  FailureOr<RankedTensorType> rhsType = node.getRankedInputType(rhs);
  if (failed(lhsType) || failed(rhsType))
    return failure();
  FailureOr<Value> left = subtractZeroPoint(
      node, lhs, lhsZero, std::max<int64_t>(lhsType->getRank() - 2, 0));
  if (failed(left))
    return failure();
  FailureOr<Value> right =
      subtractZeroPoint(node, rhs, rhsZero, rhsType->getRank() - 1);
  if (failed(right))
    return failure();
  return buildMatMul(node, *left, *right,
                     type.clone(node.builder.getI32Type()));
}

/// The i32 convolution of inputs `input` and `filter` less their zero
/// points (the filter's per output channel), subtracted before padding so
/// that the padding is the zero point.
static FailureOr<Value> convolveIntegers(NodeConverter &node, unsigned input,
                                         unsigned inputZero, unsigned filter,
                                         unsigned filterZero,
                                         RankedTensorType type) {
  FailureOr<Value> x = subtractZeroPoint(node, input, inputZero, 1);
  if (failed(x))
    return failure();
  FailureOr<Value> w = subtractZeroPoint(node, filter, filterZero, 0);
  if (failed(w))
    return failure();
  return buildConv(node, *x, *w, type.clone(node.builder.getI32Type()));
}

static LogicalResult convertMatMulInteger(NodeConverter &node,
                                          SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<Value> product = multiplyIntegers(node, 0, 2, 1, 3, *type);
  if (failed(product))
    return failure();
  results.push_back(*product);
  return success();
}

static LogicalResult convertConvInteger(NodeConverter &node,
                                        SmallVectorImpl<Value> &results) {
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<Value> result = convolveIntegers(node, 0, 2, 1, 3, *type);
  if (failed(result))
    return failure();
  results.push_back(*result);
  return success();
}

/// `accumulator` (i32) requantized: times the product of the scales in
/// inputs `scales` over the scale in input `outScale`, plus the zero
/// point in input `outZero`, saturated to `type`. The filter's scale (the
/// second of `scales`) may be per channel along `axis` of the result.
static FailureOr<Value> requantize(NodeConverter &node, Value accumulator,
                                   ArrayRef<unsigned> scales, unsigned outScale,
                                   unsigned outZero, RankedTensorType type,
                                   int64_t axis) {
  SmallVector<Value> inputs = {accumulator};
  for (unsigned i : {scales[0], scales[1], outScale, outZero}) {
    FailureOr<Value> value =
        readAlongAxis(node, i, axis, type.getRank(), "a scale or zero point");
    if (failed(value))
      return failure();
    inputs.push_back(*value);
  }
  Type element = type.getElementType();
  bool isUnsigned = isUnsignedResult(node, 0);
  bool zeroUnsigned = node.isUnsignedInput(outZero);
  return buildElementwise(
      node.builder, node.getLoc(), type, inputs,
      [&](OpBuilder &b, Location loc, ValueRange args) {
        Type floatType = args[1].getType();
        Value real = castScalar(b, loc, args[0], floatType, false, false);
        Value multiplier = arith::MulFOp::create(b, loc, args[1], args[2]);
        multiplier = arith::DivFOp::create(b, loc, multiplier, args[3]);
        real = arith::MulFOp::create(b, loc, real, multiplier);
        Value zeroPoint =
            castScalar(b, loc, args[4], floatType, zeroUnsigned, false);
        return quantizeScalar(b, loc, real, zeroPoint, element, isUnsigned);
      });
}

static LogicalResult convertQLinearMatMul(NodeConverter &node,
                                          SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  // Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale,
  // y_zero_point.
  FailureOr<Value> product = multiplyIntegers(node, 0, 2, 3, 5, *type);
  if (failed(product))
    return failure();
  FailureOr<Value> result =
      requantize(node, *product, {1, 4}, 6, 7, *type, type->getRank() - 1);
  if (failed(result))
    return failure();
  results.push_back(*result);
  return success();
}

static LogicalResult convertQLinearConv(NodeConverter &node,
                                        SmallVectorImpl<Value> &results) {
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  // Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
  // y_zero_point, B.
  FailureOr<Value> result = convolveIntegers(node, 0, 2, 3, 5, *type);
  if (failed(result))
    return failure();
  Value accumulator = *result;
  if (node.hasInput(8)) {
    auto wideType = cast<RankedTensorType>(accumulator.getType());
    FailureOr<Value> bias = readAlongAxis(node, 8, 1, wideType.getRank(), "B");
    if (failed(bias))
      return failure();
    accumulator = buildElementwise(
        node.builder, node.getLoc(), wideType, {accumulator, *bias},
        [](OpBuilder &nb, Location l, ValueRange args) {
          return arith::AddIOp::create(nb, l, args[0], args[1]).getResult();
        });
  }
  FailureOr<Value> quantized =
      requantize(node, accumulator, {1, 4}, 6, 7, *type, 1);
  if (failed(quantized))
    return failure();
  results.push_back(*quantized);
  return success();
}

void onnx_plugin::addQuantizationConverters(ConverterTable &table) {
  table["QuantizeLinear"] = {convertQuantizeLinear};
  table["DequantizeLinear"] = {convertDequantizeLinear};
  table["DynamicQuantizeLinear"] = {convertDynamicQuantizeLinear};
  table["MatMulInteger"] = {convertMatMulInteger};
  table["ConvInteger"] = {convertConvInteger};
  table["QLinearMatMul"] = {convertQLinearMatMul};
  table["QLinearConv"] = {convertQLinearConv};
}
