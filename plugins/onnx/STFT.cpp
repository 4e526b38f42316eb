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
  // frame_step: a constant (read as an affine map), or a scalar read when
  // the call runs.
  std::optional<int64_t> constantStep;
  if (std::optional<SmallVector<int64_t>> step =
          matchConstantInts(node.input(1))) {
    if (step->size() != 1 || (*step)[0] < 1)
      return node.error() << "frame_step must be one positive step", failure();
    constantStep = (*step)[0];
  } else {
    auto stepType = dyn_cast<RankedTensorType>(node.input(1).getType());
    if (!stepType || stepType.getNumElements() != 1 ||
        !stepType.getElementType().isInteger())
      return node.error() << "frame_step must be one integer", failure();
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value signal = node.input(0);
  // The frame's length: the window's, or frame_length (both must agree),
  // each known when compiling or when the call runs.
  bool windowed = node.hasInput(2);
  std::optional<OpFoldResult> frameSize;
  if (windowed) {
    auto windowType = dyn_cast<RankedTensorType>(node.input(2).getType());
    if (!windowType || windowType.getRank() != 1)
      return node.error() << "its window must be 1-D", failure();
    frameSize = tensor::getMixedSize(b, loc, node.input(2), 0);
  }
  if (node.hasInput(3)) {
    OpFoldResult given;
    if (std::optional<SmallVector<int64_t>> length =
            matchConstantInts(node.input(3))) {
      if (length->size() != 1 || (*length)[0] < 1)
        return node.error() << "frame_length must be one positive length",
               failure();
      given = b.getIndexAttr((*length)[0]);
    } else {
      auto lengthType = dyn_cast<RankedTensorType>(node.input(3).getType());
      if (!lengthType || lengthType.getNumElements() != 1 ||
          !lengthType.getElementType().isInteger())
        return node.error() << "frame_length must be one integer", failure();
      SmallVector<Value> zeros(lengthType.getRank(),
                               arith::ConstantIndexOp::create(b, loc, 0));
      Value read = arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          tensor::ExtractOp::create(b, loc, node.input(3), zeros));
      node.require(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, read,
                                arith::ConstantIndexOp::create(b, loc, 0)),
          "its frame_length is {0}; it must be positive", {read});
      given = read;
    }
    if (frameSize) {
      std::optional<int64_t> window = getConstantIntValue(*frameSize),
                             length = getConstantIntValue(given);
      if (window && length && *window != *length)
        return node.error() << "frame_length is " << *length
                            << " but its window has " << *window << " elements",
               failure();
      if (!window || !length) {
        Value windowValue = getValueOrCreateConstantIndexOp(b, loc, *frameSize);
        Value lengthValue = getValueOrCreateConstantIndexOp(b, loc, given);
        node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           windowValue, lengthValue),
                     "its frame_length is {0} but its window has {1} "
                     "elements",
                     {lengthValue, windowValue});
      }
    }
    frameSize = given;
  }
  if (!frameSize)
    return node.error() << "it needs a window or a frame_length", failure();
  Value frame = getValueOrCreateConstantIndexOp(b, loc, *frameSize);
  std::optional<int64_t> frameLength = getConstantIntValue(*frameSize);
  // Frequencies: L / 2 + 1 onesided, else L.
  OpFoldResult frequencies = *frameSize;
  if (*onesided)
    frequencies =
        frameLength
            ? OpFoldResult(b.getIndexAttr(*frameLength / 2 + 1))
            : OpFoldResult(arith::AddIOp::create(
                               b, loc,
                               arith::DivUIOp::create(
                                   b, loc, frame,
                                   arith::ConstantIndexOp::create(b, loc, 2)),
                               arith::ConstantIndexOp::create(b, loc, 1))
                               .getResult());
  std::optional<int64_t> staticFrequencies = getConstantIntValue(frequencies);

  Type compute =
      element.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : element;
  FailureOr<std::pair<Value, Value>> twiddles =
      buildTwiddles(node, compute, frequencies, *frameSize, *frameSize,
                    /*inverse=*/false);
  if (failed(twiddles))
    return failure();
  auto [cosines, sines] = *twiddles;

  Value frameStep;
  if (constantStep) {
    frameStep = arith::ConstantIndexOp::create(b, loc, *constantStep);
  } else {
    auto stepType = cast<RankedTensorType>(node.input(1).getType());
    SmallVector<Value> zeros(stepType.getRank(),
                             arith::ConstantIndexOp::create(b, loc, 0));
    Value given = tensor::ExtractOp::create(b, loc, node.input(1), zeros);
    given = arith::IndexCastOp::create(b, loc, b.getIndexType(), given);
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, given,
                              arith::ConstantIndexOp::create(b, loc, 0)),
        "its frame_step is {0}; it must be positive", {given});
    frameStep = given;
  }

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
  std::optional<int64_t> staticFrames = getConstantIntValue(frames);
  int64_t declaredFrames = type->getDimSize(1);
  if (!ShapedType::isDynamic(declaredFrames)) {
    // A frame count the graph declares: the signal's length must give it.
    if (staticFrames && *staticFrames != declaredFrames)
      return node.error() << "its output is declared with " << declaredFrames
                          << " frames; its signal gives " << *staticFrames,
             failure();
    if (!staticFrames) {
      Value count = cast<Value>(frames);
      node.require(arith::CmpIOp::create(
                       b, loc, arith::CmpIPredicate::eq, count,
                       arith::ConstantIndexOp::create(b, loc, declaredFrames)),
                   "its output is declared with " + Twine(declaredFrames) +
                       " frames, but its signal gives {0}",
                   {count});
      frames = b.getIndexAttr(declaredFrames);
      staticFrames = declaredFrames;
    }
  }
  if (!type->isDynamicDim(2)) {
    // Frequencies the graph declares: the frame's length must give them.
    int64_t declared = type->getDimSize(2);
    if (staticFrequencies && *staticFrequencies != declared)
      return node.error() << "its output is declared with " << declared
                          << " frequencies; the transform gives "
                          << *staticFrequencies,
             failure();
    if (!staticFrequencies) {
      Value count = cast<Value>(frequencies);
      node.require(arith::CmpIOp::create(
                       b, loc, arith::CmpIPredicate::eq, count,
                       arith::ConstantIndexOp::create(b, loc, declared)),
                   "its output is declared with " + Twine(declared) +
                       " frequencies, but its frame gives {0}",
                   {count});
      // The twiddles keep their run-time size; the output its declared.
      frequencies = b.getIndexAttr(declared);
      staticFrequencies = declared;
    }
  }
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
            Value term = buildSpectralTerm(nb, l, real, imaginary, cosine,
                                           sine, /*inverse=*/false,
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
