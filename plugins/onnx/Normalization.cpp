//===- Normalization.cpp - ONNX's normalizations --------------------------===//
//
// BatchNormalization (one elementwise op over the channel's statistics,
// in training mode the batch's, reduced first); InstanceNormalization,
// LayerNormalization and MeanVarianceNormalization (a mean and a variance
// reduced over the normalized dims, then one elementwise op); LRN (a sum
// of squares over a window of channels).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A parallel linalg.generic over `type` reading `inputs` through `maps`.
static Value
buildMapped(OpBuilder &b, Location loc, RankedTensorType type, Value like,
            ValueRange inputs, ArrayRef<AffineMap> maps,
            function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = createEmptyLike(b, loc, type, like);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, allMaps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args.drop_back()));
             })
      .getResult(0);
}

namespace {
/// A tensor's statistics over some of its dims (reduced away).
struct Moments {
  Value mean, variance;
  /// 1 / sqrt(variance + epsilon).
  Value inverse;
};
} // namespace

/// The moments of `input` over `dims`, computed in `compute` (f32 for
/// narrower floats).
static Moments getMoments(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> dims, Type compute, float epsilon) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  Value wide = input;
  if (type.getElementType() != compute)
    wide = buildElementwise(b, loc, type.clone(compute), input,
                            [&](OpBuilder &nb, Location l, ValueRange args) {
                              return castScalar(nb, l, args[0], compute, false,
                                                false);
                            });
  auto add = [](OpBuilder &nb, Location l, Value x, Value acc) {
    return arith::AddFOp::create(nb, l, x, acc).getResult();
  };
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d : dims)
    count = arith::MulIOp::create(b, loc, count, getDimSize(b, loc, input, d));
  Value n = castScalar(
      b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), count),
      compute, true, false);
  Value sum = reduce(b, loc, wide, dims, b.getZeroAttr(compute), add);
  auto momentType = cast<RankedTensorType>(sum.getType());
  Value mean = buildElementwise(
      b, loc, momentType, sum,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, l, args[0], n);
      });
  AffineMap reduced = getReducedMap(b, rank, dims);
  Value squares =
      buildMapped(b, loc, type.clone(compute), wide, ValueRange{wide, mean},
                  {b.getMultiDimIdentityMap(rank), reduced},
                  [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                    Value centered =
                        arith::SubFOp::create(nb, l, args[0], args[1]);
                    return arith::MulFOp::create(nb, l, centered, centered);
                  });
  Value squareSum = reduce(b, loc, squares, dims, b.getZeroAttr(compute), add);
  Value variance = buildElementwise(
      b, loc, momentType, squareSum,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        return arith::DivFOp::create(nb, l, args[0], n);
      });
  Value inverse = buildElementwise(
      b, loc, momentType, variance,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value shifted = arith::AddFOp::create(
            nb, l, args[0], floatConstant(nb, l, compute, epsilon));
        return math::RsqrtOp::create(nb, l, shifted);
      });
  return {mean, variance, inverse};
}

// BatchNormalization: y = (x - mean) * scale / sqrt(var + epsilon) + bias
// per channel. At inference mean and var are inputs; in training mode they
// are the batch's (over every dim but the channels), and the outputs add
// the running statistics, input * momentum + batch's * (1 - momentum).
static LogicalResult convertBatchNorm(NodeConverter &node,
                                      SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"epsilon", "momentum", "training_mode"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<float> epsilon = node.getFloat("epsilon", 1e-5f);
  FailureOr<float> momentum = node.getFloat("momentum", 0.9f);
  FailureOr<int64_t> training = node.getInt("training_mode", 0);
  if (failed(type) || failed(epsilon) || failed(momentum) || failed(training))
    return failure();
  if (!*training && node.getNumResults() > 1)
    return node.error() << "outputs the running mean and variance only in "
                           "training mode (training_mode = 1)",
           failure();
  int64_t rank = type->getRank();
  if (rank < 2)
    return node.error() << "the input has rank " << rank << "; it needs 2+",
           failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  for (unsigned i = 0; i < 5; ++i)
    if (!node.hasInput(i))
      return node.error() << "input " << i << " is missing", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  AffineMap channel = AffineMap::get(rank, 0, b.getAffineDimExpr(1));
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  float eps = *epsilon;
  Value mean = node.input(3), variance = node.input(4);
  Value inverse;
  if (*training) {
    SmallVector<int64_t> dims = {0};
    for (int64_t d = 2; d < rank; ++d)
      dims.push_back(d);
    Type compute =
        element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
    Moments moments = getMoments(b, loc, input, dims, compute, eps);
    mean = moments.mean;
    variance = moments.variance;
    inverse = moments.inverse;
  }
  SmallVector<Value> inputs = {input, node.input(1), node.input(2), mean,
                               inverse ? inverse : variance};
  results.push_back(buildMapped(
      b, loc, *type, input, inputs,
      {identity, channel, channel, channel, channel},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        auto cast = [&](Value v) {
          return castScalar(nb, l, v, element, false, false);
        };
        Value x = args[0], scale = cast(args[1]), bias = cast(args[2]),
              center = cast(args[3]);
        Value factor = cast(args[4]);
        if (!inverse)
          factor = math::RsqrtOp::create(
              nb, l,
              arith::AddFOp::create(nb, l, factor,
                                    floatConstant(nb, l, element, eps)));
        Value centered = arith::SubFOp::create(nb, l, x, center);
        Value scaled = arith::MulFOp::create(
            nb, l, centered, arith::MulFOp::create(nb, l, scale, factor));
        return arith::AddFOp::create(nb, l, scaled, bias);
      }));
  // The running statistics, each in its input's type.
  for (unsigned i = 1; i < node.getNumResults(); ++i) {
    FailureOr<RankedTensorType> runningType = node.getRankedResultType(i);
    if (failed(runningType))
      return failure();
    Type runningElement = runningType->getElementType();
    Value batch = i == 1 ? mean : variance;
    float weight = *momentum;
    results.push_back(buildElementwise(
        b, loc, *runningType, ValueRange{node.input(2 + i), batch},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value current =
              castScalar(nb, l, args[1], runningElement, false, false);
          return arith::AddFOp::create(
              nb, l,
              arith::MulFOp::create(
                  nb, l, args[0], floatConstant(nb, l, runningElement, weight)),
              arith::MulFOp::create(
                  nb, l, current,
                  floatConstant(nb, l, runningElement, 1.0 - weight)));
        }));
  }
  return success();
}

static LogicalResult convertLayerNorm(NodeConverter &node,
                                      SmallVectorImpl<Value> &results) {
  bool instance = node.node.getOpType() == "InstanceNormalization";
  if (failed(node.checkAttributes(
          instance ? ArrayRef<StringRef>{"epsilon"}
                   : ArrayRef<StringRef>{"axis", "epsilon", "stash_type"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<float> epsilon = node.getFloat("epsilon", 1e-5f);
  if (failed(type) || failed(epsilon))
    return failure();
  int64_t rank = type->getRank();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  // Instance: over the spatial dims, scale and bias per channel. Layer:
  // over [axis, rank), scale and bias broadcast to those dims.
  SmallVector<int64_t> dims;
  if (instance) {
    for (int64_t d = 2; d < rank; ++d)
      dims.push_back(d);
  } else {
    FailureOr<int64_t> axis = node.getAxis("axis", -1, rank);
    FailureOr<int64_t> stash = node.getInt("stash_type", 1);
    if (failed(axis) || failed(stash))
      return failure();
    for (int64_t d = *axis; d < rank; ++d)
      dims.push_back(d);
  }
  if (dims.empty())
    return node.error() << "it normalizes over no dims", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  Moments moments = getMoments(b, loc, input, dims, compute, *epsilon);
  Value mean = moments.mean, inverse = moments.inverse;
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap reduced = getReducedMap(b, rank, dims);
  SmallVector<Value> inputs = {input, mean, inverse};
  SmallVector<AffineMap> maps = {identity, reduced, reduced};
  for (unsigned i = 1; i < 3; ++i) {
    if (!node.hasInput(i))
      continue;
    Value operand = node.input(i);
    auto operandType = cast<RankedTensorType>(operand.getType());
    inputs.push_back(operand);
    maps.push_back(instance ? AffineMap::get(rank, 0, b.getAffineDimExpr(1))
                            : getBroadcastMap(operandType, *type));
  }
  bool hasBias = node.hasInput(2);
  results.push_back(buildMapped(
      b, loc, *type, input, inputs, maps,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value x = castScalar(nb, l, args[0], compute, false, false);
        Value centered = arith::SubFOp::create(nb, l, x, args[1]);
        Value normalized = arith::MulFOp::create(nb, l, centered, args[2]);
        Value y = castScalar(nb, l, normalized, element, false, false);
        y = arith::MulFOp::create(nb, l, y, args[3]);
        if (hasBias)
          y = arith::AddFOp::create(nb, l, y, args[4]);
        return y;
      }));
  // LayerNormalization's optional Mean and InvStdDev, keeping the dims.
  for (unsigned i = 1; i < node.getNumResults(); ++i) {
    FailureOr<RankedTensorType> momentType = node.getRankedResultType(i);
    if (failed(momentType))
      return failure();
    Value moment = i == 1 ? mean : inverse;
    if (cast<RankedTensorType>(moment.getType()).getElementType() !=
        momentType->getElementType())
      moment = buildElementwise(
          b, loc,
          cast<RankedTensorType>(moment.getType())
              .clone(momentType->getElementType()),
          moment, [&](OpBuilder &nb, Location l, ValueRange args) {
            return castScalar(nb, l, args[0], momentType->getElementType(),
                              false, false);
          });
    results.push_back(reshapeTo(b, loc, moment, *momentType));
  }
  return success();
}

static LogicalResult convertMeanVariance(NodeConverter &node,
                                         SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axes"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  auto axes = node.getInts("axes");
  if (failed(type) || failed(axes))
    return failure();
  int64_t rank = type->getRank();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  SmallVector<int64_t> dims = *axes ? **axes : SmallVector<int64_t>{0, 2, 3};
  for (int64_t &axis : dims) {
    FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank, "axis");
    if (failed(normalized))
      return failure();
    axis = *normalized;
  }
  llvm::sort(dims);
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  // (x - mean) / sqrt(variance); a tiny epsilon keeps a constant run at 0.
  Moments moments = getMoments(b, loc, input, dims, compute, 1e-18f);
  AffineMap reduced = getReducedMap(b, rank, dims);
  results.push_back(buildMapped(
      b, loc, *type, input, ValueRange{input, moments.mean, moments.inverse},
      {b.getMultiDimIdentityMap(rank), reduced, reduced},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value x = castScalar(nb, l, args[0], compute, false, false);
        Value centered = arith::SubFOp::create(nb, l, x, args[1]);
        Value normalized = arith::MulFOp::create(nb, l, centered, args[2]);
        return castScalar(nb, l, normalized, element, false, false);
      }));
  return success();
}

/// LRN: each element divided by (bias + alpha / size * the sum of squares
/// over the `size` channels around it) ** beta.
static LogicalResult convertLocalResponse(NodeConverter &node,
                                          SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"alpha", "beta", "bias", "size"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<float> alpha = node.getFloat("alpha", 1e-4f);
  FailureOr<float> beta = node.getFloat("beta", 0.75f);
  FailureOr<float> bias = node.getFloat("bias", 1.0f);
  FailureOr<int64_t> size = node.getInt("size", 0);
  if (failed(type) || failed(alpha) || failed(beta) || failed(bias) ||
      failed(size))
    return failure();
  int64_t rank = type->getRank();
  Type element = type->getElementType();
  if (!isa<FloatType>(element) || rank < 2 || *size < 1)
    return node.error() << "it needs a float input of rank 2+ and a "
                           "positive size",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  // Loops (n, c, spatial..., k): channel c - (size - 1) / 2 + k, skipped
  // outside [0, C).
  int64_t before = (*size - 1) / 2;
  Value channels = getDimSize(b, loc, input, 1);
  Value window =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{*size}, element);
  Value empty = createEmptyLike(b, loc, *type, input);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<utils::IteratorType> iterators = getParallelIterators(rank);
  iterators.push_back(utils::IteratorType::reduction);
  MLIRContext *context = b.getContext();
  Value squares =
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, ValueRange{window}, ValueRange{init},
          ArrayRef<AffineMap>{
              AffineMap::get(rank + 1, 0, b.getAffineDimExpr(rank), context),
              AffineMap::getMultiDimIdentityMap(rank + 1, context)
                  .dropResult(rank)},
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> position;
            for (int64_t d = 0; d < rank; ++d)
              position.push_back(linalg::IndexOp::create(nb, l, d));
            Value k = linalg::IndexOp::create(nb, l, rank);
            Value channel = arith::SubIOp::create(
                nb, l, arith::AddIOp::create(nb, l, position[1], k),
                arith::ConstantIndexOp::create(nb, l, before));
            Value low = arith::ConstantIndexOp::create(nb, l, 0);
            Value inside = arith::AndIOp::create(
                nb, l,
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, channel,
                                      low),
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, channel,
                                      channels));
            Value last = arith::SubIOp::create(
                nb, l, channels, arith::ConstantIndexOp::create(nb, l, 1));
            position[1] = arith::MinSIOp::create(
                nb, l, arith::MaxSIOp::create(nb, l, channel, low), last);
            Value x = tensor::ExtractOp::create(nb, l, input, position);
            Value square = arith::MulFOp::create(nb, l, x, x);
            Value none =
                arith::ConstantOp::create(nb, l, nb.getZeroAttr(element));
            Value term = arith::SelectOp::create(nb, l, inside, square, none);
            linalg::YieldOp::create(
                nb, l, ValueRange{arith::AddFOp::create(nb, l, args[1], term)});
          })
          .getResult(0);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  float scale = *alpha / *size, exponent = *beta, offset = *bias;
  results.push_back(buildMapped(
      b, loc, *type, input, ValueRange{input, squares}, {identity, identity},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value scaled = arith::MulFOp::create(
            nb, l, args[1], floatConstant(nb, l, element, scale));
        Value base = arith::AddFOp::create(
            nb, l, scaled, floatConstant(nb, l, element, offset));
        Value divisor = math::PowFOp::create(
            nb, l, base, floatConstant(nb, l, element, exponent));
        return arith::DivFOp::create(nb, l, args[0], divisor);
      }));
  return success();
}

void onnx_plugin::addNormalizationConverters(ConverterTable &table) {
  table["BatchNormalization"] = {convertBatchNorm};
  table["InstanceNormalization"] = {convertLayerNorm};
  table["LayerNormalization"] = {convertLayerNorm};
  table["MeanVarianceNormalization"] = {convertMeanVariance};
  table["LRN"] = {convertLocalResponse};
}
