//===- STFT.cpp - ONNX's STFT ---------------------------------------------===//
//
// STFT (opset 17): frames of frame_length samples every frame_step of a
// real ([batch, length, 1] or [batch, length]) or complex ([batch,
// length, 2]) signal, each
// times the window, transformed (all frequencies, or the first
// frame_length / 2 + 1 onesided). One generic over the output [batch,
// frames, frequencies, 2] and the frame's samples, reading sample
// n * frame_step + m of frame n; the frame count comes from the signal's
// length when the call runs, so a signal of any length works.
//
//===----------------------------------------------------------------------===//

#include "Spectral.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Input `index` (`name`) of `node`, one positive integer: a constant, or
/// read when the call runs (checked positive there).
static FailureOr<OpFoldResult> readSize(NodeConverter &node, unsigned index,
                                        StringRef name) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  if (std::optional<SmallVector<int64_t>> value =
          matchConstantInts(node.input(index))) {
    if (value->size() != 1 || (*value)[0] < 1)
      return node.error() << name << " must be one positive integer", failure();
    return OpFoldResult(b.getIndexAttr((*value)[0]));
  }
  auto type = dyn_cast<RankedTensorType>(node.input(index).getType());
  if (!type || type.getNumElements() != 1 || !type.getElementType().isInteger())
    return node.error() << name << " must be one integer", failure();
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(b, loc, 0));
  Value read = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      tensor::ExtractOp::create(b, loc, node.input(index), zeros));
  node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, read,
                                     arith::ConstantIndexOp::create(b, loc, 0)),
               "its " + name + " is {0}; it must be positive", {read});
  return OpFoldResult(read);
}

/// Checks that `actual` equals `expected`: an error now when both are
/// known, else at the call; `message` says {0} for actual, {1} for
/// expected.
static LogicalResult requireEqual(NodeConverter &node, OpFoldResult actual,
                                  OpFoldResult expected, const Twine &message) {
  std::optional<int64_t> a = getConstantIntValue(actual),
                         e = getConstantIntValue(expected);
  if (a && e) {
    if (*a == *e)
      return success();
    std::string text = message.str();
    for (auto [placeholder, value] :
         {std::pair{"{0}", *a}, std::pair{"{1}", *e}})
      text.replace(text.find(placeholder), 3, std::to_string(value));
    return node.error() << text, failure();
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value actualValue = getValueOrCreateConstantIndexOp(b, loc, actual);
  Value expectedValue = getValueOrCreateConstantIndexOp(b, loc, expected);
  node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     actualValue, expectedValue),
               message, {actualValue, expectedValue});
  return success();
}

static LogicalResult convertSTFT(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"onesided"})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<int64_t> onesided = node.getInt("onesided", 1);
  if (failed(inputType) || failed(type) || failed(onesided))
    return failure();
  // [batch, length] (as ONNX Runtime also takes) or [batch, length, 1]
  // real, [batch, length, 2] complex.
  int64_t signalRank = inputType->getRank();
  if ((signalRank != 2 && signalRank != 3) ||
      (signalRank == 3 &&
       (inputType->getDimSize(2) != 1 && inputType->getDimSize(2) != 2)))
    return node.error() << "its signal must be [batch, length] or [batch, "
                           "length, 1 or 2]; got "
                        << *inputType,
           failure();
  bool complex = signalRank == 3 && inputType->getDimSize(2) == 2;
  if (*onesided && complex)
    return node.error() << "onesided applies to a real signal", failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element) || type->getRank() != 4 ||
      type->getDimSize(3) != 2)
    return node.error() << "its output must be [batch, frames, frequencies, "
                           "2] of floats; got "
                        << *type,
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value signal = node.input(0);
  // frame_step: a constant (read through an affine map), or read when the
  // call runs.
  FailureOr<OpFoldResult> step = readSize(node, 1, "frame_step");
  if (failed(step))
    return failure();
  std::optional<int64_t> constantStep = getConstantIntValue(*step);
  Value frameStep = getValueOrCreateConstantIndexOp(b, loc, *step);
  // The frame's length: the window's, or frame_length (both must agree).
  bool windowed = node.hasInput(2);
  std::optional<OpFoldResult> frameSize;
  if (windowed) {
    auto windowType = dyn_cast<RankedTensorType>(node.input(2).getType());
    if (!windowType || windowType.getRank() != 1)
      return node.error() << "its window must be 1-D", failure();
    frameSize = tensor::getMixedSize(b, loc, node.input(2), 0);
  }
  if (node.hasInput(3)) {
    FailureOr<OpFoldResult> given = readSize(node, 3, "frame_length");
    if (failed(given) ||
        (frameSize &&
         failed(requireEqual(node, *given, *frameSize,
                             "its frame_length is {0} but its window has {1} "
                             "elements"))))
      return failure();
    frameSize = *given;
  }
  if (!frameSize)
    return node.error() << "it needs a window or a frame_length", failure();
  Value frame = getValueOrCreateConstantIndexOp(b, loc, *frameSize);
  std::optional<int64_t> frameLength = getConstantIntValue(*frameSize);
  OpFoldResult frequencies =
      getFrequencyCount(b, loc, *frameSize, *onesided != 0);

  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  FailureOr<std::pair<Value, Value>> twiddles =
      buildTwiddles(node, compute, frequencies, *frameSize, *frameSize,
                    /*inverse=*/false);
  if (failed(twiddles))
    return failure();
  auto [cosines, sines] = *twiddles;

  // frames = (length - frame_length) / frame_step + 1, at least one frame.
  int64_t length = inputType->getDimSize(1);
  OpFoldResult frames;
  if (!ShapedType::isDynamic(length) && constantStep && frameLength) {
    if (length < *frameLength)
      return node.error() << "its signal of " << length
                          << " samples is shorter than a frame of "
                          << *frameLength,
             failure();
    frames = b.getIndexAttr((length - *frameLength) / *constantStep + 1);
  } else {
    Value samples = getDimSize(b, loc, signal, 1);
    node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                       samples, frame),
                 "its signal of {0} samples is shorter than a frame of {1}",
                 {samples, frame});
    frames = arith::AddIOp::create(
                 b, loc,
                 arith::DivUIOp::create(
                     b, loc, arith::SubIOp::create(b, loc, samples, frame),
                     frameStep),
                 arith::ConstantIndexOp::create(b, loc, 1))
                 .getResult();
  }
  // Frame and frequency counts the graph declares: the signal and the
  // frame must give them (the twiddles keep their own size).
  for (auto [dim, count, what] : {std::tuple{1, &frames, "frames"},
                                  std::tuple{2, &frequencies, "frequencies"}}) {
    int64_t declared = type->getDimSize(dim);
    if (ShapedType::isDynamic(declared))
      continue;
    if (failed(requireEqual(node, *count, b.getIndexAttr(declared),
                            "its transform gives {0} " + Twine(what) +
                                "; its output is declared with {1}")))
      return failure();
    *count = b.getIndexAttr(declared);
  }
  std::optional<int64_t> staticFrames = getConstantIntValue(frames),
                         staticFrequencies = getConstantIntValue(frequencies);
  int64_t batch = inputType->getDimSize(0);
  auto computeType = RankedTensorType::get(
      {batch, staticFrames ? *staticFrames : ShapedType::kDynamic,
       staticFrequencies ? *staticFrequencies : ShapedType::kDynamic, 2},
      compute);
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, signal, 0),
                                     frames, frequencies, b.getIndexAttr(2)};
  Value init = linalg::FillOp::create(
                   b, loc, floatConstant(b, loc, compute, 0.0),
                   tensor::EmptyOp::create(b, loc, sizes, compute).getResult())
                   .getResult(0);

  // Dims (batch, frame n, frequency k, component, sample m).
  MLIRContext *context = b.getContext();
  AffineExpr n = getAffineDimExpr(1, context), k = getAffineDimExpr(2, context),
             m = getAffineDimExpr(4, context);
  auto signalMap = [&](int64_t component) {
    SmallVector<AffineExpr> exprs = {getAffineDimExpr(0, context),
                                     n * *constantStep + m};
    if (signalRank == 3)
      exprs.push_back(getAffineConstantExpr(component, context));
    return AffineMap::get(5, 0, exprs, context);
  };
  AffineMap twiddleMap = AffineMap::get(5, 0, {k, m}, context);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  // With a step known at run time, the body reads the signal itself.
  if (constantStep) {
    inputs.push_back(signal);
    maps.push_back(signalMap(0));
    if (complex) {
      inputs.push_back(signal);
      maps.push_back(signalMap(1));
    }
  }
  if (windowed) {
    inputs.push_back(node.input(2));
    maps.push_back(AffineMap::get(5, 0, {m}, context));
  }
  inputs.append({cosines, sines});
  maps.append({twiddleMap, twiddleMap});
  maps.push_back(AffineMap::getMultiDimIdentityMap(5, context).dropResult(4));
  SmallVector<utils::IteratorType> iterators = getParallelIterators(4);
  iterators.push_back(utils::IteratorType::reduction);
  Value transformed =
      linalg::GenericOp::create(
          b, loc, TypeRange{computeType}, inputs, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            auto cast = [&](Value v) {
              return castScalar(nb, l, v, compute, false, false);
            };
            unsigned next = 0;
            Value real, imaginary;
            if (constantStep) {
              real = cast(args[next++]);
              imaginary = complex ? cast(args[next++]) : Value();
            } else {
              Value at = arith::AddIOp::create(
                  nb, l,
                  arith::MulIOp::create(
                      nb, l, linalg::IndexOp::create(nb, l, 1), frameStep),
                  linalg::IndexOp::create(nb, l, 4));
              auto read = [&](int64_t component) {
                SmallVector<Value> position = {
                    linalg::IndexOp::create(nb, l, 0), at};
                if (signalRank == 3)
                  position.push_back(
                      arith::ConstantIndexOp::create(nb, l, component));
                return cast(tensor::ExtractOp::create(nb, l, signal, position));
              };
              real = read(0);
              imaginary = complex ? read(1) : Value();
            }
            if (windowed) {
              Value weight = cast(args[next++]);
              real = arith::MulFOp::create(nb, l, real, weight);
              if (imaginary)
                imaginary = arith::MulFOp::create(nb, l, imaginary, weight);
            }
            Value cosine = args[next++], sine = args[next++];
            Value term = buildSpectralTerm(nb, l, real, imaginary, cosine, sine,
                                           /*inverse=*/false,
                                           linalg::IndexOp::create(nb, l, 3));
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(nb, l, args.back(), term)});
          })
          .getResult(0);
  transformed = castSpectrum(b, loc, transformed, element);
  results.push_back(transformed);
  return success();
}

void onnx_plugin::addSTFTConverters(ConverterTable &table) {
  table["STFT"] = {convertSTFT, 17};
}
