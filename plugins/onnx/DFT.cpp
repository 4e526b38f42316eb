//===- DFT.cpp - ONNX's DFT -----------------------------------------------===//
//
// DFT (opset 17) along one axis of a real ([..., 1]) or complex ([..., 2])
// signal, forward or inverse, all frequencies or (onesided, real input)
// the first L / 2 + 1; a constant dft_length L pads with zeros or
// truncates. The transform is a contraction with constant cos and sin
// matrices of L frequencies by the samples used (1 / L folded in for the
// inverse): one generic over the output and the samples, its last output
// dim choosing the real or the imaginary part.
//
//===----------------------------------------------------------------------===//

#include "Spectral.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A constant [frequencies x samples] matrix of `element`, entry (k, m)
/// `scale * f(2 pi k m / length)`.
static Value buildConstantTwiddles(OpBuilder &b, Location loc, Type element,
                                   int64_t frequencies, int64_t samples,
                                   int64_t length, double scale,
                                   double (*f)(double)) {
  SmallVector<Attribute> values;
  for (int64_t k = 0; k < frequencies; ++k)
    for (int64_t m = 0; m < samples; ++m) {
      // k * m mod length keeps the angle small, so exact at large k, m.
      double angle = 2.0 * M_PI * static_cast<double>((k * m) % length) /
                     static_cast<double>(length);
      values.push_back(b.getFloatAttr(element, scale * f(angle)));
    }
  auto type = RankedTensorType::get({frequencies, samples}, element);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

FailureOr<std::pair<Value, Value>>
onnx_plugin::buildTwiddles(NodeConverter &node, Type element,
                           OpFoldResult frequencies, OpFoldResult samples,
                           OpFoldResult length, bool inverse) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  std::optional<int64_t> f = getConstantIntValue(frequencies),
                         m = getConstantIntValue(samples),
                         l = getConstantIntValue(length);
  if (f && m && l) {
    // The matrices are constants of the module: bounded, so that a length
    // from the model cannot make the compile run for hours or out of
    // memory.
    constexpr int64_t kMaxTwiddles = int64_t(1) << 26;
    if (*f > kMaxTwiddles / std::max<int64_t>(*m, 1))
      return node.error() << "a transform of " << *f << " frequencies of " << *m
                          << " samples needs constant matrices of more "
                          << "than " << kMaxTwiddles
                          << " elements, more than Kiln builds",
             failure();
    double scale = inverse ? 1.0 / static_cast<double>(*l) : 1.0;
    // One after the other: the cosines first in the IR.
    Value cosines = buildConstantTwiddles(b, loc, element, *f, *m, *l, scale,
                                          [](double x) { return std::cos(x); });
    Value sines = buildConstantTwiddles(b, loc, element, *f, *m, *l, scale,
                                        [](double x) { return std::sin(x); });
    return std::make_pair(cosines, sines);
  }
  // Sizes known when the call runs: the same entries computed then, the
  // angle's k * m reduced mod length in integers first.
  auto type = RankedTensorType::get(
      {f ? *f : ShapedType::kDynamic, m ? *m : ShapedType::kDynamic}, element);
  Value lengthValue = getValueOrCreateConstantIndexOp(b, loc, length);
  auto build = [&](bool sine) {
    Value empty = tensor::EmptyOp::create(
        b, loc, ArrayRef<OpFoldResult>{frequencies, samples}, element);
    MLIRContext *context = b.getContext();
    return linalg::GenericOp::create(
               b, loc, TypeRange{type}, ValueRange{}, ValueRange{empty},
               ArrayRef<AffineMap>{
                   AffineMap::getMultiDimIdentityMap(2, context)},
               getParallelIterators(2),
               [&](OpBuilder &nb, Location l, ValueRange) {
                 Value k = linalg::IndexOp::create(nb, l, 0);
                 Value j = linalg::IndexOp::create(nb, l, 1);
                 Value turns = arith::RemUIOp::create(
                     nb, l, arith::MulIOp::create(nb, l, k, j), lengthValue);
                 auto toFloat = [&](Value index) {
                   return arith::UIToFPOp::create(
                       nb, l, element,
                       arith::IndexCastOp::create(nb, l, nb.getI64Type(),
                                                  index));
                 };
                 Value size = toFloat(lengthValue);
                 // The angle as a quarter turn q (exact, in integers) plus
                 // theta in [0, pi / 2): quarter turns (the Nyquist
                 // frequency's sines) come out exact, and the rounding of
                 // the angle scales with theta, not with 2 pi.
                 Value four = arith::MulIOp::create(
                     nb, l, turns, arith::ConstantIndexOp::create(nb, l, 4));
                 Value quarter =
                     arith::DivUIOp::create(nb, l, four, lengthValue);
                 Value theta = arith::MulFOp::create(
                     nb, l,
                     arith::DivFOp::create(nb, l,
                                           toFloat(arith::RemUIOp::create(
                                               nb, l, four, lengthValue)),
                                           size),
                     floatConstant(nb, l, element, M_PI / 2));
                 Value c = math::CosOp::create(nb, l, theta);
                 Value s = math::SinOp::create(nb, l, theta);
                 auto negate = [&](Value v) -> Value {
                   return arith::NegFOp::create(nb, l, v);
                 };
                 // cos(q pi / 2 + theta) is c, -s, -c, s; sin is s, c,
                 // -s, -c.
                 SmallVector<Value> choices =
                     sine ? SmallVector<Value>{s, c, negate(s), negate(c)}
                          : SmallVector<Value>{c, negate(s), negate(c), s};
                 Value value = choices[3];
                 for (int64_t q = 2; q >= 0; --q)
                   value = arith::SelectOp::create(
                       nb, l,
                       arith::CmpIOp::create(
                           nb, l, arith::CmpIPredicate::eq, quarter,
                           arith::ConstantIndexOp::create(nb, l, q)),
                       choices[q], value);
                 if (inverse)
                   value = arith::DivFOp::create(nb, l, value, size);
                 linalg::YieldOp::create(nb, l, value);
               })
        .getResult(0);
  };
  Value cosines = build(false);
  Value sines = build(true);
  return std::make_pair(cosines, sines);
}

static LogicalResult convertDFT(NodeConverter &node,
                                SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis", "inverse", "onesided"})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<int64_t> inverse = node.getInt("inverse", 0);
  FailureOr<int64_t> onesided = node.getInt("onesided", 0);
  if (failed(inputType) || failed(type) || failed(inverse) || failed(onesided))
    return failure();
  int64_t rank = inputType->getRank();
  if (rank < 3 || type->getRank() != rank)
    return node.error() << "takes a signal [batch, samples..., 1 or 2] of rank "
                           "3 or more; got "
                        << *inputType,
           failure();
  int64_t components = inputType->getDimSize(rank - 1);
  if (components != 1 && components != 2)
    return node.error() << "its input's last dim must be 1 (real) or 2 "
                           "(complex); got "
                        << *inputType,
           failure();
  // The signal's axes are those between the batch and the components.
  FailureOr<int64_t> axis = node.getAxis("axis", 1, rank);
  if (failed(axis))
    return failure();
  if (*axis == 0 || *axis == rank - 1)
    return node.error() << "axis " << *axis
                        << " is the batch or the components; the transform "
                           "runs along a signal axis, 1 to "
                        << rank - 2,
           failure();
  if (*onesided && (*inverse || components == 2))
    return node.error() << "onesided applies to the forward transform of a "
                           "real signal",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  int64_t samples = inputType->getDimSize(*axis);
  // A signal of dynamic length transforms over its whole length; a
  // dft_length pads or cuts one of a known length.
  OpFoldResult length = tensor::getMixedSize(b, loc, node.input(0), *axis);
  OpFoldResult used = length;
  if (node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> given =
        node.getConstantInts(1, "dft_length");
    if (failed(given))
      return failure();
    if (given->size() != 1 || (*given)[0] < 1)
      return node.error() << "dft_length must be one positive length",
             failure();
    if (ShapedType::isDynamic(samples))
      return node.error() << "with a dft_length, the signal's length along "
                             "axis "
                          << *axis << " must be known at compile time",
             failure();
    length = b.getIndexAttr((*given)[0]);
    // Samples past the signal read zeros, so contribute nothing; samples
    // past L are cut.
    used = b.getIndexAttr(std::min(samples, (*given)[0]));
  }
  OpFoldResult frequencies = getFrequencyCount(b, loc, length, *onesided != 0);
  std::optional<int64_t> staticFrequencies = getConstantIntValue(frequencies);
  if (staticFrequencies && !type->isDynamicDim(*axis) &&
      type->getDimSize(*axis) != *staticFrequencies)
    return node.error() << "its output has " << type->getDimSize(*axis)
                        << " frequencies along axis " << *axis << "; the "
                        << "transform gives " << *staticFrequencies,
           failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element) || type->getDimSize(rank - 1) != 2)
    return node.error() << "its output must be a complex float signal "
                           "[..., 2]; got "
                        << *type,
           failure();

  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  FailureOr<std::pair<Value, Value>> twiddles =
      buildTwiddles(node, compute, frequencies, used, length, *inverse);
  if (failed(twiddles))
    return failure();
  auto [cosines, sines] = *twiddles;

  // Output dims 0 .. rank - 1, then the sample m.
  MLIRContext *context = b.getContext();
  AffineExpr m = getAffineDimExpr(rank, context);
  auto signalMap = [&](int64_t component) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank - 1; ++d)
      exprs.push_back(d == *axis ? m : getAffineDimExpr(d, context));
    exprs.push_back(getAffineConstantExpr(component, context));
    return AffineMap::get(rank + 1, 0, exprs, context);
  };
  AffineMap twiddleMap = AffineMap::get(
      rank + 1, 0, {getAffineDimExpr(*axis, context), m}, context);
  SmallVector<Value> inputs = {node.input(0)};
  SmallVector<AffineMap> maps = {signalMap(0)};
  if (components == 2) {
    inputs.push_back(node.input(0));
    maps.push_back(signalMap(1));
  }
  inputs.append({cosines, sines});
  maps.append({twiddleMap, twiddleMap});
  SmallVector<int64_t> shape(type->getShape());
  shape[*axis] = staticFrequencies ? *staticFrequencies : ShapedType::kDynamic;
  auto computeType = RankedTensorType::get(shape, compute);
  // The output: every dim but the sample.
  maps.push_back(
      AffineMap::getMultiDimIdentityMap(rank + 1, context).dropResult(rank));
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    if (computeType.isDynamicDim(d))
      sizes.push_back(d == *axis ? cast<Value>(frequencies)
                                 : getDimSize(b, loc, node.input(0), d));
  Value init =
      linalg::FillOp::create(
          b, loc, floatConstant(b, loc, compute, 0.0),
          tensor::EmptyOp::create(b, loc, shape, compute, sizes).getResult())
          .getResult(0);
  SmallVector<utils::IteratorType> iterators = getParallelIterators(rank);
  iterators.push_back(utils::IteratorType::reduction);
  bool isInverse = *inverse;
  bool complex = components == 2;
  Value transformed =
      linalg::GenericOp::create(
          b, loc, TypeRange{computeType}, inputs, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            auto cast = [&](Value v) {
              return castScalar(nb, l, v, compute, false, false);
            };
            Value real = cast(args[0]);
            Value imaginary = complex ? cast(args[1]) : Value();
            Value cosine = args[complex ? 2 : 1], sine = args[complex ? 3 : 2];
            Value term = buildSpectralTerm(
                nb, l, real, imaginary, cosine, sine, isInverse,
                linalg::IndexOp::create(nb, l, rank - 1));
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(nb, l, args.back(), term)});
          })
          .getResult(0);
  transformed = castSpectrum(b, loc, transformed, element);
  results.push_back(transformed);
  return success();
}

OpFoldResult onnx_plugin::getFrequencyCount(OpBuilder &b, Location loc,
                                            OpFoldResult length,
                                            bool onesided) {
  if (!onesided)
    return length;
  // L / 2 + 1.
  if (std::optional<int64_t> l = getConstantIntValue(length))
    return b.getIndexAttr(*l / 2 + 1);
  return arith::AddIOp::create(
             b, loc,
             arith::DivUIOp::create(b, loc, cast<Value>(length),
                                    arith::ConstantIndexOp::create(b, loc, 2)),
             arith::ConstantIndexOp::create(b, loc, 1))
      .getResult();
}

Value onnx_plugin::buildSpectralTerm(OpBuilder &b, Location loc, Value real,
                                     Value imaginary, Value cosine, Value sine,
                                     bool inverse, Value component) {
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulFOp::create(b, loc, x, y);
  };
  // Forward: (re + i im)(cos - i sin); inverse: (cos + i sin).
  Value realPart = mul(real, cosine);
  Value imaginaryPart = mul(real, sine);
  if (!inverse)
    imaginaryPart = arith::NegFOp::create(b, loc, imaginaryPart);
  if (imaginary) {
    Value crossSine = mul(imaginary, sine);
    realPart =
        inverse
            ? arith::SubFOp::create(b, loc, realPart, crossSine).getResult()
            : arith::AddFOp::create(b, loc, realPart, crossSine).getResult();
    imaginaryPart =
        arith::AddFOp::create(b, loc, imaginaryPart, mul(imaginary, cosine));
  }
  Value isReal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, component,
                            arith::ConstantIndexOp::create(b, loc, 0));
  return arith::SelectOp::create(b, loc, isReal, realPart, imaginaryPart);
}

Value onnx_plugin::castSpectrum(OpBuilder &b, Location loc, Value transformed,
                                Type element) {
  auto type = cast<RankedTensorType>(transformed.getType());
  if (type.getElementType() == element)
    return transformed;
  return buildElementwise(b, loc, type.clone(element), transformed,
                          [&](OpBuilder &nb, Location l, ValueRange args) {
                            return castScalar(nb, l, args[0], element, false,
                                              false);
                          });
}

void onnx_plugin::addDFTConverters(ConverterTable &table) {
  table["DFT"] = {convertDFT, 17};
}
