//===- RecurrentLoop.cpp - RNN, GRU and LSTM as a loop over time ----------===//
//
// A recurrent node whose sequence length (or batch) is known only at run
// time: per direction, the input projection of every step as one MatMul
// up front (X W^T + Wb over [T, B] at once), then an scf.for over the
// steps whose body is Recurrent.cpp's step (the recurrent product, the
// gates) reading the step's rows of that projection, carrying the state
// and writing the step's output into Y.
//
// Y is carried through the loop and each step's rows are inserted into
// it; a dispatch does not write its result in place yet, so each insert
// copies Y (cost quadratic in the length; issue 52's in-place results
// remove it).
//
//===----------------------------------------------------------------------===//

#include "Recurrent.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

LogicalResult
onnx_plugin::convertRecurrentLoop(NodeConverter &node, const Recurrent &r,
                                  SmallVectorImpl<Value> &results) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value x = node.input(0);
  auto xType = cast<RankedTensorType>(x.getType());
  Type element = xType.getElementType();
  int64_t h = r.hidden, g = r.gates, width = xType.getDimSize(2);
  int64_t timeDim = r.batchFirst ? 1 : 0, batchDim = r.batchFirst ? 0 : 1;
  int64_t batch = xType.getDimSize(batchDim);
  OpFoldResult batchSize = tensor::getMixedSize(b, loc, x, batchDim);
  Value steps = tensor::DimOp::create(b, loc, x, timeDim);
  OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
  auto stateType = RankedTensorType::get({batch, h}, element);
  SmallVector<OpFoldResult> stateSizes = {batchSize, b.getIndexAttr(h)};
  auto zeros = [&](RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
    return createFilled(b, loc, type, b.getZeroAttr(element), sizes);
  };

  Value lengths;
  if (node.hasInput(4)) {
    lengths = reshapeTo(b, loc, node.input(4),
                        RankedTensorType::get({batch, 1}, b.getI32Type()));
    if (!lengths)
      return node.error() << "its sequence_lens must have one length per "
                             "batch entry",
             failure();
  }
  // Y: [T, directions, B, H], or [B, T, directions, H] batch first.
  OpFoldResult stepCount = steps;
  auto yType =
      r.batchFirst
          ? RankedTensorType::get(
                {batch, xType.getDimSize(timeDim), r.directions, h}, element)
          : RankedTensorType::get(
                {xType.getDimSize(timeDim), r.directions, batch, h}, element);
  SmallVector<OpFoldResult> ySizes =
      r.batchFirst
          ? SmallVector<OpFoldResult>{batchSize, stepCount,
                                      b.getIndexAttr(r.directions),
                                      b.getIndexAttr(h)}
          : SmallVector<OpFoldResult>{stepCount, b.getIndexAttr(r.directions),
                                      batchSize, b.getIndexAttr(h)};
  Value y = zeros(yType, ySizes);

  SmallVector<Value> lastH, lastC;
  for (int64_t d = 0; d < r.directions; ++d) {
    DirectionWeights weights = sliceDirectionWeights(node, r, d, width);
    // Every step's input projection at once: X [T, B, I] W^T + Wb.
    FailureOr<Value> projected = projectInputs(node, x, weights);
    if (failed(projected))
      return failure();
    Value inputs = *projected;
    auto initial = [&](unsigned input) -> Value {
      if (!node.hasInput(input))
        return zeros(stateType, stateSizes);
      OpFoldResult di = b.getIndexAttr(d);
      SmallVector<OpFoldResult> offsets = {di, zero, zero},
                                sizes = {one, batchSize, b.getIndexAttr(h)};
      if (r.batchFirst) {
        offsets = {zero, di, zero};
        sizes = {batchSize, one, b.getIndexAttr(h)};
      }
      return tensor::ExtractSliceOp::create(b, loc, stateType,
                                            node.input(input), offsets, sizes,
                                            SmallVector<OpFoldResult>(3, one));
    };
    SmallVector<Value> carried = {initial(5)};
    if (r.kind == Recurrent::LSTM)
      carried.push_back(initial(6));
    carried.push_back(y);

    Value lower = arith::ConstantIndexOp::create(b, loc, 0);
    Value stride = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, lower, steps, stride, carried);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      Value step = loop.getInductionVar();
      // Backward directions read from the last step.
      Value t = step;
      if (r.isBackward(d))
        t = arith::SubIOp::create(
            b, loc, arith::SubIOp::create(b, loc, steps, step), stride);
      SmallVector<OpFoldResult> offsets(3, zero), sizes(3, one);
      offsets[timeDim] = t;
      sizes[batchDim] = batchSize;
      sizes[2] = b.getIndexAttr(g * h);
      Value stepInputs = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get({batch, g * h}, element), inputs,
          offsets, sizes, SmallVector<OpFoldResult>(3, one));
      StepState state{loop.getRegionIterArg(0), r.kind == Recurrent::LSTM
                                                    ? loop.getRegionIterArg(1)
                                                    : Value()};
      Value output;
      FailureOr<StepState> next =
          buildStep(node, r, d, stepInputs, state, weights.step, lengths,
                    stepTensor(b, loc, t), output);
      if (failed(next))
        return failure();
      // Y[t, d] (or Y[:, t, d]) = the step's output.
      Value yIn = loop.getRegionIterArgs().back();
      OpFoldResult di = b.getIndexAttr(d);
      SmallVector<OpFoldResult> yOffsets =
          r.batchFirst ? SmallVector<OpFoldResult>{zero, t, di, zero}
                       : SmallVector<OpFoldResult>{t, di, zero, zero};
      SmallVector<OpFoldResult> ySizes =
          r.batchFirst ? SmallVector<OpFoldResult>{batchSize, one, one,
                                                   b.getIndexAttr(h)}
                       : SmallVector<OpFoldResult>{one, one, batchSize,
                                                   b.getIndexAttr(h)};
      Value yOut =
          tensor::InsertSliceOp::create(b, loc, output, yIn, yOffsets, ySizes,
                                        SmallVector<OpFoldResult>(4, one));
      SmallVector<Value> yielded = {next->h};
      if (r.kind == Recurrent::LSTM)
        yielded.push_back(next->c);
      yielded.push_back(yOut);
      scf::YieldOp::create(b, loc, yielded);
    }
    lastH.push_back(loop.getResult(0));
    lastC.push_back(r.kind == Recurrent::LSTM ? loop.getResult(1) : Value());
    y = loop.getResults().back();
  }
  pushRecurrentResults(node, r, y, lastH, lastC, results);
  return success();
}
