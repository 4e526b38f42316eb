//===- GridSample.cpp - ONNX's GridSample ---------------------------------===//
//
// GridSample (opset 16, 4-D): output pixel (n, c, h, w) samples image
// X[n, c] at the point Grid[n, h, w] = (x, y), given in [-1, 1] across the
// image (corner pixels' centers with align_corners, their outer edges
// without), by the nearest pixel, bilinearly or bicubically (A = -0.75);
// points outside read zeros, the border pixel, or the image reflected at
// its border. The rules follow PyTorch's grid_sample, which ONNX took.
//
// One generic over the output reads the two grid coordinates through
// its indexing maps and gathers the taps from X with tensor.extract.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
enum class Padding { Zeros, Border, Reflection };
enum class Mode { Nearest, Bilinear, Bicubic };

/// Builds the arithmetic of one output pixel in a generic's body.
class Sampler {
public:
  Sampler(OpBuilder &b, Location loc, Type compute, Padding padding,
          bool alignCorners, Value image, Value n, Value c)
      : b(b), loc(loc), compute(compute), padding(padding),
        alignCorners(alignCorners), image(image), n(n), c(c) {
    height = sizeOf(2);
    width = sizeOf(3);
  }

  /// The output pixel at grid point (x, y).
  Value sample(Mode mode, Value x, Value y);

private:
  Value constant(double value) { return floatConstant(b, loc, compute, value); }
  Value add(Value lhs, Value rhs) {
    return arith::AddFOp::create(b, loc, lhs, rhs);
  }
  Value sub(Value lhs, Value rhs) {
    return arith::SubFOp::create(b, loc, lhs, rhs);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulFOp::create(b, loc, lhs, rhs);
  }
  Value floor(Value value) { return math::FloorOp::create(b, loc, value); }

  /// Dim `d` of the image, as an index and as a float.
  std::pair<Value, Value> sizeOf(int64_t d) {
    Value size = getDimSize(b, loc, image, d);
    Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), size);
    return {size, arith::SIToFPOp::create(b, loc, compute, asInt)};
  }

  /// A grid coordinate in [-1, 1] as a pixel coordinate over `size` pixels.
  Value unnormalize(Value coordinate, Value size) {
    Value one = constant(1.0);
    Value shifted = add(coordinate, one);
    if (alignCorners)
      return mul(mul(shifted, constant(0.5)), sub(size, one));
    return mul(sub(mul(shifted, size), one), constant(0.5));
  }

  Value clip(Value coordinate, Value size) {
    Value low = arith::MaximumFOp::create(b, loc, coordinate, constant(0.0));
    return arith::MinimumFOp::create(b, loc, low, sub(size, constant(1.0)));
  }

  /// `coordinate` reflected into [twiceLow / 2, twiceHigh / 2].
  Value reflect(Value coordinate, Value twiceLow, Value twiceHigh) {
    Value half = constant(0.5);
    Value low = mul(twiceLow, half);
    Value span = mul(sub(twiceHigh, twiceLow), half);
    Value distance = math::AbsFOp::create(b, loc, sub(coordinate, low));
    Value extra = arith::RemFOp::create(b, loc, distance, span);
    Value flips = floor(arith::DivFOp::create(b, loc, distance, span));
    Value halfFlips = mul(flips, half);
    Value even = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                       floor(halfFlips), halfFlips);
    Value reflected = arith::SelectOp::create(b, loc, even, add(extra, low),
                                              add(sub(span, extra), low));
    // An image one pixel wide reflects everything onto its one pixel.
    Value empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                        twiceLow, twiceHigh);
    return arith::SelectOp::create(b, loc, empty, constant(0.0), reflected);
  }

  /// A pixel coordinate brought inside the image by the padding mode
  /// (unchanged for zeros, which reads 0 outside instead).
  Value pad(Value coordinate, Value size) {
    if (padding == Padding::Border)
      return clip(coordinate, size);
    if (padding == Padding::Reflection) {
      Value reflected =
          alignCorners ? reflect(coordinate, constant(0.0),
                                 mul(constant(2.0), sub(size, constant(1.0))))
                       : reflect(coordinate, constant(-1.0),
                                 sub(mul(constant(2.0), size), constant(1.0)));
      return clip(reflected, size);
    }
    return coordinate;
  }

  /// The image's value at integral float coordinates (x, y), 0 outside.
  Value fetch(Value x, Value y) {
    auto toIndex = [&](Value coordinate, std::pair<Value, Value> size,
                       Value &inside) -> Value {
      // Into [-1, size] first (NaN to -1): outside stays outside, and the
      // conversion stays in range.
      Value bounded = arith::MinNumFOp::create(
          b, loc, arith::MaxNumFOp::create(b, loc, coordinate, constant(-1.0)),
          size.second);
      Value asInt = arith::FPToSIOp::create(b, loc, b.getI64Type(), bounded);
      Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), asInt);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value above =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, index, zero);
      Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          index, size.first);
      inside = arith::AndIOp::create(
          b, loc, inside, arith::AndIOp::create(b, loc, above, below));
      Value last = arith::SubIOp::create(
          b, loc, size.first, arith::ConstantIndexOp::create(b, loc, 1));
      return arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, index, zero), last);
    };
    Value inside = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    Value column = toIndex(x, width, inside);
    Value row = toIndex(y, height, inside);
    Value value =
        tensor::ExtractOp::create(b, loc, image, ValueRange{n, c, row, column});
    value = castScalar(b, loc, value, compute, false, false);
    return arith::SelectOp::create(b, loc, inside, value, constant(0.0));
  }

  /// Cubic convolution weights at fraction `t`, A = -0.75 (PyTorch's).
  std::array<Value, 4> cubicWeights(Value t) {
    double a = -0.75;
    // |x| <= 1: ((A + 2) x - (A + 3)) x x + 1.
    auto near = [&](Value x) {
      return add(mul(mul(sub(mul(constant(a + 2), x), constant(a + 3)), x), x),
                 constant(1.0));
    };
    // 1 < |x| < 2: ((A x - 5 A) x + 8 A) x - 4 A.
    auto far = [&](Value x) {
      return sub(mul(add(mul(sub(mul(constant(a), x), constant(5 * a)), x),
                         constant(8 * a)),
                     x),
                 constant(4 * a));
    };
    Value one = constant(1.0);
    Value rest = sub(one, t);
    return {far(add(t, one)), near(t), near(rest), far(add(rest, one))};
  }

  Value interpolateCubic(ArrayRef<Value> values, Value t) {
    std::array<Value, 4> weights = cubicWeights(t);
    Value sum = mul(values[0], weights[0]);
    for (int k = 1; k < 4; ++k)
      sum = add(sum, mul(values[k], weights[k]));
    return sum;
  }

  OpBuilder &b;
  Location loc;
  Type compute;
  Padding padding;
  bool alignCorners;
  Value image, n, c;
  std::pair<Value, Value> height, width;
};
} // namespace

Value Sampler::sample(Mode mode, Value gridX, Value gridY) {
  Value x = unnormalize(gridX, width.second);
  Value y = unnormalize(gridY, height.second);
  if (mode == Mode::Bicubic) {
    // Taps at floor - 1 .. floor + 2, each padded on its own.
    Value x0 = floor(x), y0 = floor(y);
    Value tx = sub(x, x0), ty = sub(y, y0);
    SmallVector<Value> rows;
    for (int i = -1; i <= 2; ++i) {
      Value row = pad(add(y0, constant(i)), height.second);
      SmallVector<Value> taps;
      for (int j = -1; j <= 2; ++j)
        taps.push_back(fetch(pad(add(x0, constant(j)), width.second), row));
      rows.push_back(interpolateCubic(taps, tx));
    }
    return interpolateCubic(rows, ty);
  }
  x = pad(x, width.second);
  y = pad(y, height.second);
  if (mode == Mode::Nearest)
    return fetch(math::RoundEvenOp::create(b, loc, x),
                 math::RoundEvenOp::create(b, loc, y));
  Value x0 = floor(x), y0 = floor(y);
  Value x1 = add(x0, constant(1.0)), y1 = add(y0, constant(1.0));
  Value east = sub(x, x0), west = sub(x1, x);
  Value south = sub(y, y0), north = sub(y1, y);
  Value sum = mul(fetch(x0, y0), mul(west, north));
  sum = add(sum, mul(fetch(x1, y0), mul(east, north)));
  sum = add(sum, mul(fetch(x0, y1), mul(west, south)));
  return add(sum, mul(fetch(x1, y1), mul(east, south)));
}

static LogicalResult convertGridSample(NodeConverter &node,
                                       SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"align_corners", "mode", "padding_mode"})))
    return failure();
  FailureOr<int64_t> align = node.getInt("align_corners", 0);
  FailureOr<std::string> modeName = node.getString("mode", "bilinear");
  FailureOr<std::string> paddingName = node.getString("padding_mode", "zeros");
  FailureOr<RankedTensorType> imageType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> gridType = node.getRankedInputType(1);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(align) || failed(modeName) || failed(paddingName) ||
      failed(imageType) || failed(gridType) || failed(type))
    return failure();
  std::optional<Mode> mode = llvm::StringSwitch<std::optional<Mode>>(*modeName)
                                 .Case("nearest", Mode::Nearest)
                                 .Case("bilinear", Mode::Bilinear)
                                 .Case("bicubic", Mode::Bicubic)
                                 .Default(std::nullopt);
  if (!mode)
    return node.error() << "mode '" << *modeName
                        << "' is none of 'nearest', 'bilinear' and 'bicubic'",
           failure();
  std::optional<Padding> padding =
      llvm::StringSwitch<std::optional<Padding>>(*paddingName)
          .Case("zeros", Padding::Zeros)
          .Case("border", Padding::Border)
          .Case("reflection", Padding::Reflection)
          .Default(std::nullopt);
  if (!padding)
    return node.error() << "padding_mode '" << *paddingName
                        << "' is none of 'zeros', 'border' and 'reflection'",
           failure();
  if (imageType->getRank() != 4 || gridType->getRank() != 4 ||
      type->getRank() != 4)
    return node.error() << "samples 4-D images (N x C x H x W) at a 4-D grid "
                           "(N x H_out x W_out x 2); got "
                        << *imageType << " and " << *gridType,
           failure();
  if (gridType->getDimSize(3) != 2)
    return node.error() << "its grid's last dim must be 2 (x, y); got "
                        << *gridType,
           failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element) || !isa<FloatType>(gridType->getElementType()))
    return node.error() << "samples float images at float grids", failure();

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  Value image = node.input(0), grid = node.input(1);
  MLIRContext *context = b.getContext();
  AffineExpr n = getAffineDimExpr(0, context), h = getAffineDimExpr(2, context),
             w = getAffineDimExpr(3, context);
  AffineExpr zero = getAffineConstantExpr(0, context),
             one = getAffineConstantExpr(1, context);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {n, h, w, zero}, context),
                                 AffineMap::get(4, 0, {n, h, w, one}, context),
                                 b.getMultiDimIdentityMap(4)};
  // The output: N and C of the image, H_out and W_out of the grid.
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < 4; ++d)
    if (type->isDynamicDim(d))
      sizes.push_back(
          getDimSize(b, loc, d < 2 ? image : grid, d < 2 ? d : d - 1));
  Value init =
      tensor::EmptyOp::create(b, loc, type->getShape(), element, sizes);
  bool alignCorners = *align != 0;
  results.push_back(
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, ValueRange{grid, grid}, ValueRange{init},
          maps, getParallelIterators(4),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value batch = linalg::IndexOp::create(nb, l, 0);
            Value channel = linalg::IndexOp::create(nb, l, 1);
            Sampler sampler(nb, l, compute, *padding, alignCorners, image,
                            batch, channel);
            Value x = castScalar(nb, l, args[0], compute, false, false);
            Value y = castScalar(nb, l, args[1], compute, false, false);
            Value value = sampler.sample(*mode, x, y);
            linalg::YieldOp::create(
                nb, l, castScalar(nb, l, value, element, false, false));
          })
          .getResult(0));
  return success();
}

void onnx_plugin::addGridSampleConverters(ConverterTable &table) {
  table["GridSample"] = {convertGridSample, 16};
}
