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

#include "Converters.h"

#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A constant [frequencies x samples] matrix of `element`, entry (k, m)
/// `scale * f(2 pi k m / length)`.
static Value buildTwiddles(OpBuilder &b, Location loc, Type element,
                           int64_t frequencies, int64_t samples, int64_t length,
                           double scale, double (*f)(double)) {
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
  int64_t samples = inputType->getDimSize(*axis);
  if (ShapedType::isDynamic(samples))
    return node.error() << "the signal's length along axis " << *axis
                        << " must be known at compile time",
           failure();
  int64_t length = samples;
  if (node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> given =
        node.getConstantInts(1, "dft_length");
    if (failed(given))
      return failure();
    if (given->size() != 1 || (*given)[0] < 1)
      return node.error() << "dft_length must be one positive length",
             failure();
    length = (*given)[0];
  }
  int64_t frequencies = *onesided ? length / 2 + 1 : length;
  if (!type->isDynamicDim(*axis) && type->getDimSize(*axis) != frequencies)
    return node.error() << "its output has " << type->getDimSize(*axis)
                        << " frequencies along axis " << *axis << "; the "
                        << "transform gives " << frequencies,
           failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element) || type->getDimSize(rank - 1) != 2)
    return node.error() << "its output must be a complex float signal "
                           "[..., 2]; got "
                        << *type,
           failure();

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  // Samples past the signal read zeros, so contribute nothing; samples
  // past L are cut.
  int64_t used = std::min(samples, length);
  // The matrices are constants of the module: bounded, so that a length
  // from the model cannot make the compile run for hours or out of memory.
  constexpr int64_t kMaxTwiddles = int64_t(1) << 26;
  if (frequencies > kMaxTwiddles / std::max<int64_t>(used, 1))
    return node.error() << "a transform of " << frequencies
                        << " frequencies of " << used
                        << " samples needs constant matrices of more than "
                        << kMaxTwiddles << " elements, more than Kiln builds",
           failure();
  double scale = *inverse ? 1.0 / static_cast<double>(length) : 1.0;
  Value cosines = buildTwiddles(b, loc, compute, frequencies, used, length,
                                scale, [](double x) { return std::cos(x); });
  Value sines = buildTwiddles(b, loc, compute, frequencies, used, length, scale,
                              [](double x) { return std::sin(x); });

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
  shape[*axis] = frequencies;
  auto computeType = RankedTensorType::get(shape, compute);
  // The output: every dim but the sample.
  maps.push_back(
      AffineMap::getMultiDimIdentityMap(rank + 1, context).dropResult(rank));
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < rank; ++d)
    if (computeType.isDynamicDim(d))
      sizes.push_back(getDimSize(b, loc, node.input(0), d));
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
            auto mul = [&](Value x, Value y) -> Value {
              return arith::MulFOp::create(nb, l, x, y);
            };
            // Forward: (re + i im)(cos - i sin); inverse: (cos + i sin).
            Value realPart = mul(real, cosine);
            Value imaginaryPart = mul(real, sine);
            imaginaryPart =
                isInverse
                    ? imaginaryPart
                    : arith::NegFOp::create(nb, l, imaginaryPart).getResult();
            if (complex) {
              Value crossSine = mul(imaginary, sine);
              realPart = isInverse
                             ? arith::SubFOp::create(nb, l, realPart, crossSine)
                                   .getResult()
                             : arith::AddFOp::create(nb, l, realPart, crossSine)
                                   .getResult();
              imaginaryPart = arith::AddFOp::create(nb, l, imaginaryPart,
                                                    mul(imaginary, cosine));
            }
            Value component = linalg::IndexOp::create(nb, l, rank - 1);
            Value isReal = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::eq, component,
                arith::ConstantIndexOp::create(nb, l, 0));
            Value term =
                arith::SelectOp::create(nb, l, isReal, realPart, imaginaryPart);
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(nb, l, args.back(), term)});
          })
          .getResult(0);
  if (compute != element)
    transformed = buildElementwise(
        b, loc, computeType.clone(element), transformed,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          return castScalar(nb, l, args[0], element, false, false);
        });
  results.push_back(transformed);
  return success();
}

void onnx_plugin::addDFTConverters(ConverterTable &table) {
  table["DFT"] = {convertDFT, 17};
}
