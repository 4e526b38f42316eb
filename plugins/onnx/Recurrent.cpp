//===- Recurrent.cpp - RNN, GRU and LSTM unrolled over time ---------------===//
//
// ONNX's recurrent layers. With a sequence length known when compiling,
// unrolled: each step of each direction is the matmuls of the step's input
// and the previous hidden state by the transposed weights (the converters'
// MatMul), the gates' elementwise math, and an insert of the step's hidden
// state into Y. Steps past a batch entry's sequence_lens keep its state and
// write zeros, so the reverse direction starts at each entry's last
// element. A sequence of dynamic length runs as a loop over time instead
// (RecurrentLoop.cpp), with the same step.
//
//===----------------------------------------------------------------------===//

#include "Recurrent.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Reads the attributes; an error for what is not supported.
FailureOr<Recurrent> onnx_plugin::readRecurrent(NodeConverter &node) {
  StringRef op = node.node.getOpType();
  Recurrent r;
  r.kind = op == "RNN"   ? Recurrent::RNN
           : op == "GRU" ? Recurrent::GRU
                         : Recurrent::LSTM;
  r.gates = r.kind == Recurrent::RNN ? 1 : r.kind == Recurrent::GRU ? 3 : 4;
  SmallVector<StringRef> known = {
      "activation_alpha", "activation_beta", "activations", "clip",
      "direction",        "hidden_size",     "layout"};
  if (r.kind == Recurrent::GRU)
    known.push_back("linear_before_reset");
  if (r.kind == Recurrent::LSTM)
    known.push_back("input_forget");
  if (failed(node.checkAttributes(known)))
    return failure();
  FailureOr<int64_t> hidden = node.getInt("hidden_size", 0);
  FailureOr<std::string> direction = node.getString("direction", "forward");
  FailureOr<int64_t> layout = node.getInt("layout", 0);
  FailureOr<int64_t> lbr = node.getInt("linear_before_reset", 0);
  FailureOr<int64_t> forget = node.getInt("input_forget", 0);
  if (failed(hidden) || failed(direction) || failed(layout) || failed(lbr) ||
      failed(forget))
    return failure();
  if (*direction != "forward" && *direction != "reverse" &&
      *direction != "bidirectional")
    return node.error() << "direction '" << *direction << "' is unknown",
           failure();
  r.hidden = *hidden;
  r.directions = *direction == "bidirectional" ? 2 : 1;
  r.reverse = *direction == "reverse";
  r.batchFirst = *layout == 1;
  r.linearBeforeReset = *lbr != 0;
  r.inputForget = *forget != 0;
  if (node.getAttribute("clip")) {
    FailureOr<float> clip = node.getFloat("clip", 0);
    if (failed(clip))
      return failure();
    r.clip = *clip;
  }
  // Activations: per direction f (and g, h), the defaults where absent.
  SmallVector<std::string> defaults =
      r.kind == Recurrent::RNN ? SmallVector<std::string>{"Tanh"}
      : r.kind == Recurrent::GRU
          ? SmallVector<std::string>{"Sigmoid", "Tanh"}
          : SmallVector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  auto named = dyn_cast_or_null<ArrayAttr>(node.getAttribute("activations"));
  for (int64_t d = 0; d < r.directions; ++d)
    for (auto [i, fallback] : llvm::enumerate(defaults)) {
      size_t at = d * defaults.size() + i;
      std::string name = fallback;
      if (named && at < named.size())
        if (auto text = dyn_cast<StringAttr>(named[at]))
          name = text.getValue().str();
      if (name != "Tanh" && name != "Sigmoid" && name != "Relu")
        return node.error() << "activation '" << name
                            << "' is not supported (Tanh, Sigmoid, Relu)",
               failure();
      r.activations.push_back(name);
    }
  if (node.getAttribute("activation_alpha") ||
      node.getAttribute("activation_beta"))
    return node.error() << "activation_alpha and activation_beta are not "
                           "supported",
           failure();
  return r;
}

/// `value` (f32 scalar) through activation `name`.
static Value activate(OpBuilder &b, Location loc, StringRef name, Value x) {
  Type type = x.getType();
  if (name == "Tanh")
    return math::TanhOp::create(b, loc, x);
  if (name == "Relu")
    return arith::MaximumFOp::create(b, loc, x, floatConstant(b, loc, type, 0));
  // Sigmoid: 1 / (1 + exp(-x)).
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(
      b, loc, floatConstant(b, loc, type, 1),
      arith::AddFOp::create(b, loc, floatConstant(b, loc, type, 1), e));
}

Value onnx_plugin::sliceStatic(OpBuilder &b, Location loc, Value value,
                               ArrayRef<int64_t> offsets,
                               ArrayRef<int64_t> sizes,
                               ArrayRef<int64_t> kept) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> o, s, strides(type.getRank(), b.getIndexAttr(1));
  for (auto [offset, size] : llvm::zip(offsets, sizes)) {
    o.push_back(b.getIndexAttr(offset));
    s.push_back(b.getIndexAttr(size));
  }
  auto result = RankedTensorType::get(kept, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, result, value, o, s, strides);
}

/// Columns [offset, offset + size) of the 2-D `value`, every row (a
/// dynamic batch too).
static Value sliceColumns(OpBuilder &b, Location loc, Value value,
                          int64_t offset, int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0),
                                       b.getIndexAttr(offset)};
  SmallVector<OpFoldResult> sizes = {tensor::getMixedSize(b, loc, value, 0),
                                     b.getIndexAttr(size)};
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  auto result =
      RankedTensorType::get({type.getDimSize(0), size}, type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, result, value, offsets, sizes,
                                        strides);
}

FailureOr<Value> onnx_plugin::timesTransposed(NodeConverter &node, Value x,
                                              Value w) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  auto wt = cast<RankedTensorType>(w.getType());
  Type element = wt.getElementType();
  Value empty = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{wt.getDimSize(1), wt.getDimSize(0)}, element);
  Value transposed =
      linalg::TransposeOp::create(b, loc, w, empty, ArrayRef<int64_t>{1, 0})
          ->getResult(0);
  auto xt = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(xt.getShape());
  shape.back() = wt.getDimSize(0);
  return buildMatMul(node, x, transposed,
                     RankedTensorType::get(shape, element));
}

Value onnx_plugin::addBroadcast(OpBuilder &b, Location loc, Value x, Value y) {
  return buildElementwise(
      b, loc, cast<RankedTensorType>(x.getType()), {x, y},
      [](OpBuilder &nb, Location l, ValueRange args) {
        return arith::AddFOp::create(nb, l, args[0], args[1]).getResult();
      });
}

FailureOr<Value> onnx_plugin::projectInputs(NodeConverter &node, Value x,
                                            const DirectionWeights &weights) {
  FailureOr<Value> product = timesTransposed(node, x, weights.input);
  if (failed(product) || !weights.inputBias)
    return product;
  return addBroadcast(node.builder, node.getLoc(), *product, weights.inputBias);
}

DirectionWeights onnx_plugin::sliceDirectionWeights(NodeConverter &node,
                                                    const Recurrent &r,
                                                    int64_t d, int64_t width) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  int64_t h = r.hidden, g = r.gates;
  DirectionWeights weights;
  weights.input = sliceStatic(b, loc, node.input(1), {d, 0, 0},
                              {1, g * h, width}, {g * h, width});
  weights.step.recurrent =
      sliceStatic(b, loc, node.input(2), {d, 0, 0}, {1, g * h, h}, {g * h, h});
  // Biases: Wb + Rb per gate, kept apart for GRU's reset-gated Rbh.
  if (node.hasInput(3)) {
    weights.inputBias =
        sliceStatic(b, loc, node.input(3), {d, 0}, {1, g * h}, {1, g * h});
    weights.step.recurrentBias =
        sliceStatic(b, loc, node.input(3), {d, g * h}, {1, g * h}, {1, g * h});
  }
  if (r.kind == Recurrent::LSTM && node.hasInput(7))
    weights.step.peepholes =
        sliceStatic(b, loc, node.input(7), {d, 0}, {1, 3 * h}, {1, 3 * h});
  return weights;
}

FailureOr<StepState> onnx_plugin::buildStep(NodeConverter &node,
                                            const Recurrent &r, int64_t d,
                                            Value inputs, StepState state,
                                            const StepWeights &weights,
                                            Value lengths, Value t,
                                            Value &output) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  ArrayRef<std::string> acts = r.directionActivations(d);
  int64_t h = r.hidden;
  auto stateType = cast<RankedTensorType>(state.h.getType());
  Type element = stateType.getElementType();
  Value rw = weights.recurrent, rb = weights.recurrentBias;
  // GRU's candidate reads the previous state through the reset gate; its
  // recurrent product is made separately below.
  Value recurrentWeights =
      r.kind == Recurrent::GRU
          ? sliceStatic(b, loc, rw, {0, 0}, {2 * h, h}, {2 * h, h})
          : rw;
  FailureOr<Value> hr = timesTransposed(node, state.h, recurrentWeights);
  if (failed(hr))
    return failure();
  Value recurrent = *hr;
  if (rb)
    recurrent = addBroadcast(
        b, loc, recurrent,
        r.kind == Recurrent::GRU
            ? sliceStatic(b, loc, rb, {0, 0}, {1, 2 * h}, {1, 2 * h})
            : rb);
  auto gate = [&](Value all, int64_t index) {
    return sliceColumns(b, loc, all, index * h, h);
  };
  auto clipped = [&](OpBuilder &nb, Location l, Value v) -> Value {
    if (!r.clip)
      return v;
    Value bound = floatConstant(nb, l, element, *r.clip);
    v = arith::MinimumFOp::create(nb, l, v, bound);
    return arith::MaximumFOp::create(nb, l, v,
                                     arith::NegFOp::create(nb, l, bound));
  };
  Value newH, newC;
  if (r.kind == Recurrent::RNN) {
    newH =
        buildElementwise(b, loc, stateType, {inputs, recurrent},
                         [&](OpBuilder &nb, Location l, ValueRange a) {
                           Value sum = arith::AddFOp::create(nb, l, a[0], a[1]);
                           return activate(nb, l, acts[0], clipped(nb, l, sum));
                         });
  } else if (r.kind == Recurrent::GRU) {
    // z, r from the first two gates; the candidate from the third.
    Value rh = sliceStatic(b, loc, rw, {2 * h, 0}, {h, h}, {h, h});
    Value rbh =
        rb ? sliceStatic(b, loc, rb, {0, 2 * h}, {1, h}, {1, h}) : Value();
    auto gateOf = [&](int64_t index) {
      return buildElementwise(
          b, loc, stateType, {gate(inputs, index), gate(recurrent, index)},
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value sum = arith::AddFOp::create(nb, l, a[0], a[1]);
            return activate(nb, l, acts[0], clipped(nb, l, sum));
          });
    };
    Value z = gateOf(0), reset = gateOf(1);
    Value candidateIn;
    auto multiply = [](OpBuilder &nb, Location l, ValueRange a) {
      return arith::MulFOp::create(nb, l, a[0], a[1]).getResult();
    };
    if (r.linearBeforeReset) {
      FailureOr<Value> product = timesTransposed(node, state.h, rh);
      if (failed(product))
        return failure();
      Value linear = rbh ? addBroadcast(b, loc, *product, rbh) : *product;
      candidateIn =
          buildElementwise(b, loc, stateType, {reset, linear}, multiply);
    } else {
      Value gated =
          buildElementwise(b, loc, stateType, {reset, state.h}, multiply);
      FailureOr<Value> product = timesTransposed(node, gated, rh);
      if (failed(product))
        return failure();
      candidateIn = rbh ? addBroadcast(b, loc, *product, rbh) : *product;
    }
    newH = buildElementwise(
        b, loc, stateType, {gate(inputs, 2), candidateIn, z, state.h},
        [&](OpBuilder &nb, Location l, ValueRange a) {
          Value sum = arith::AddFOp::create(nb, l, a[0], a[1]);
          Value candidate = activate(nb, l, acts[1], clipped(nb, l, sum));
          // (1 - z) candidate + z h.
          Value keep = arith::MulFOp::create(nb, l, a[2], a[3]);
          Value fresh = arith::MulFOp::create(
              nb, l,
              arith::SubFOp::create(nb, l, floatConstant(nb, l, element, 1),
                                    a[2]),
              candidate);
          return arith::AddFOp::create(nb, l, fresh, keep).getResult();
        });
  } else {
    // LSTM gates i, o, f, c; peepholes i, o, f.
    Value sums = addBroadcast(b, loc, inputs, recurrent);
    SmallVector<Value> operands = {gate(sums, 0), gate(sums, 1), gate(sums, 2),
                                   gate(sums, 3), state.c};
    if (weights.peepholes)
      for (int64_t p = 0; p < 3; ++p)
        operands.push_back(
            sliceStatic(b, loc, weights.peepholes, {0, p * h}, {1, h}, {1, h}));
    bool forgetFromInput = r.inputForget;
    // One generic for the new cell, one for the new hidden state.
    newC = buildElementwise(
        b, loc, stateType, operands,
        [&](OpBuilder &nb, Location l, ValueRange a) {
          Value c = a[4];
          auto peep = [&](int64_t p, Value v) -> Value {
            if (a.size() <= 5)
              return v;
            return arith::AddFOp::create(
                nb, l, v, arith::MulFOp::create(nb, l, a[5 + p], c));
          };
          Value i = activate(nb, l, acts[0], clipped(nb, l, peep(0, a[0])));
          Value f =
              forgetFromInput
                  ? arith::SubFOp::create(nb, l,
                                          floatConstant(nb, l, element, 1), i)
                        .getResult()
                  : activate(nb, l, acts[0], clipped(nb, l, peep(2, a[2])));
          Value candidate = activate(nb, l, acts[1], clipped(nb, l, a[3]));
          return arith::AddFOp::create(
                     nb, l, arith::MulFOp::create(nb, l, f, c),
                     arith::MulFOp::create(nb, l, i, candidate))
              .getResult();
        });
    operands[4] = newC;
    newH = buildElementwise(
        b, loc, stateType, operands,
        [&](OpBuilder &nb, Location l, ValueRange a) {
          Value c = a[4];
          Value pre = a[1];
          if (a.size() > 5)
            pre = arith::AddFOp::create(nb, l, pre,
                                        arith::MulFOp::create(nb, l, a[6], c));
          Value o = activate(nb, l, acts[0], clipped(nb, l, pre));
          return arith::MulFOp::create(nb, l, o, activate(nb, l, acts[2], c))
              .getResult();
        });
  }
  // Past a batch entry's length: the state stays, Y gets zeros.
  output = newH;
  if (lengths) {
    auto masked = [&](Value fresh, Value old, bool zero) {
      return buildElementwise(
          b, loc, stateType, {fresh, old, lengths, t},
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value inside = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::sgt, a[2], a[3]);
            Value other = zero ? floatConstant(nb, l, element, 0) : a[1];
            return arith::SelectOp::create(nb, l, inside, a[0], other)
                .getResult();
          });
    };
    output = masked(newH, state.h, true);
    newH = masked(newH, state.h, false);
    if (newC)
      newC = masked(newC, state.c, false);
  }
  return StepState{newH, newC};
}

Value onnx_plugin::stackDirections(OpBuilder &b, Location loc,
                                   const Recurrent &r, ArrayRef<Value> states) {
  auto stateType = cast<RankedTensorType>(states.front().getType());
  int64_t batch = stateType.getDimSize(0), h = r.hidden;
  OpFoldResult batchSize = tensor::getMixedSize(b, loc, states.front(), 0);
  auto type = r.batchFirst ? RankedTensorType::get({batch, r.directions, h},
                                                   stateType.getElementType())
                           : RankedTensorType::get({r.directions, batch, h},
                                                   stateType.getElementType());
  SmallVector<OpFoldResult> all =
      r.batchFirst ? SmallVector<OpFoldResult>{batchSize, b.getIndexAttr(0),
                                               b.getIndexAttr(0)}
                   : SmallVector<OpFoldResult>{b.getIndexAttr(0), batchSize,
                                               b.getIndexAttr(0)};
  Value result = createFilled(b, loc, type,
                              b.getZeroAttr(stateType.getElementType()), all);
  for (auto [d, value] : llvm::enumerate(states)) {
    OpFoldResult di = b.getIndexAttr(d), zero = b.getIndexAttr(0),
                 one = b.getIndexAttr(1), hidden = b.getIndexAttr(h);
    SmallVector<OpFoldResult> offsets =
        r.batchFirst ? SmallVector<OpFoldResult>{zero, di, zero}
                     : SmallVector<OpFoldResult>{di, zero, zero};
    SmallVector<OpFoldResult> sizes =
        r.batchFirst ? SmallVector<OpFoldResult>{batchSize, one, hidden}
                     : SmallVector<OpFoldResult>{one, batchSize, hidden};
    result =
        tensor::InsertSliceOp::create(b, loc, value, result, offsets, sizes,
                                      SmallVector<OpFoldResult>(3, one));
  }
  return result;
}

Value onnx_plugin::stepTensor(OpBuilder &b, Location loc, Value t) {
  Value index =
      t.getType().isIndex()
          ? arith::IndexCastOp::create(b, loc, b.getI32Type(), t).getResult()
          : t;
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, b.getI32Type()), ValueRange{index});
}

static LogicalResult convertRecurrent(NodeConverter &node,
                                      SmallVectorImpl<Value> &results) {
  FailureOr<Recurrent> read = readRecurrent(node);
  FailureOr<RankedTensorType> xType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> wType = node.getRankedInputType(1);
  if (failed(read) || failed(xType) || failed(wType))
    return failure();
  const Recurrent &r = *read;
  if (xType->getRank() != 3 || xType->isDynamicDim(2))
    return node.error() << "its input X must be 3-D with a static input size",
           failure();
  Type element = xType->getElementType();
  if (!element.isF32())
    return node.error() << "it needs f32 inputs", failure();
  int64_t width = xType->getDimSize(2);
  int64_t h = r.hidden, g = r.gates;
  if (wType->getShape() != ArrayRef<int64_t>{r.directions, g * h, width})
    return node.error() << "its W must be " << r.directions << "x" << g * h
                        << "x" << width,
           failure();
  if (!xType->hasStaticShape())
    return convertRecurrentLoop(node, r, results);
  int64_t steps = xType->getDimSize(r.batchFirst ? 1 : 0);
  int64_t batch = xType->getDimSize(r.batchFirst ? 0 : 1);
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  auto zeros = [&](RankedTensorType type) {
    return createFilled(b, loc, type, b.getZeroAttr(element));
  };
  // The per-batch lengths as [B, 1] i32, if given.
  Value lengths;
  if (node.hasInput(4)) {
    auto type = RankedTensorType::get({batch, 1}, b.getI32Type());
    lengths = reshapeTo(b, loc, node.input(4), type);
  }

  auto stateType = RankedTensorType::get({batch, h}, element);
  auto yType =
      r.batchFirst
          ? RankedTensorType::get({batch, steps, r.directions, h}, element)
          : RankedTensorType::get({steps, r.directions, batch, h}, element);
  Value y = zeros(yType);
  SmallVector<Value> lastH, lastC;
  for (int64_t d = 0; d < r.directions; ++d) {
    DirectionWeights weights = sliceDirectionWeights(node, r, d, width);
    StepState state;
    auto initial = [&](unsigned input) -> Value {
      if (!node.hasInput(input))
        return zeros(stateType);
      SmallVector<int64_t> offsets = {d, 0, 0}, sizes = {1, batch, h};
      if (r.batchFirst) {
        offsets = {0, d, 0};
        sizes = {batch, 1, h};
      }
      return sliceStatic(b, loc, node.input(input), offsets, sizes, {batch, h});
    };
    state.h = initial(5);
    if (r.kind == Recurrent::LSTM)
      state.c = initial(6);
    for (int64_t step = 0; step < steps; ++step) {
      int64_t t = r.isBackward(d) ? steps - 1 - step : step;
      Value x = r.batchFirst ? sliceStatic(b, loc, node.input(0), {0, t, 0},
                                           {batch, 1, width}, {batch, width})
                             : sliceStatic(b, loc, node.input(0), {t, 0, 0},
                                           {1, batch, width}, {batch, width});
      FailureOr<Value> inputs = projectInputs(node, x, weights);
      if (failed(inputs))
        return failure();
      Value output;
      FailureOr<StepState> next = buildStep(
          node, r, d, *inputs, state, weights.step, lengths,
          stepTensor(b, loc,
                     arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(t))),
          output);
      if (failed(next))
        return failure();
      state.h = next->h;
      if (next->c)
        state.c = next->c;
      // Y[t, d] (or Y[:, t, d]) = the step's output.
      SmallVector<OpFoldResult> offsets, sizes, strides(4, b.getIndexAttr(1));
      auto index = [&](int64_t v) { return b.getIndexAttr(v); };
      if (r.batchFirst) {
        offsets = {index(0), index(t), index(d), index(0)};
        sizes = {index(batch), index(1), index(1), index(h)};
      } else {
        offsets = {index(t), index(d), index(0), index(0)};
        sizes = {index(1), index(1), index(batch), index(h)};
      }
      y = tensor::InsertSliceOp::create(b, loc, output, y, offsets, sizes,
                                        strides);
    }
    lastH.push_back(state.h);
    lastC.push_back(state.c);
  }
  pushRecurrentResults(node, r, y, lastH, lastC, results);
  return success();
}

void onnx_plugin::pushRecurrentResults(NodeConverter &node, const Recurrent &r,
                                       Value y, ArrayRef<Value> lastH,
                                       ArrayRef<Value> lastC,
                                       SmallVectorImpl<Value> &results) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  // Outputs the node leaves out ("") get none.
  auto wanted = [&](unsigned i) {
    return i < node.getNumResults() && !isa<NoneType>(node.getResultType(i));
  };
  results.push_back(wanted(0) ? y : Value());
  if (node.getNumResults() > 1)
    results.push_back(wanted(1) ? stackDirections(b, loc, r, lastH) : Value());
  if (node.getNumResults() > 2)
    results.push_back(wanted(2) ? stackDirections(b, loc, r, lastC) : Value());
}

void onnx_plugin::addRecurrentConverters(ConverterTable &table) {
  for (StringRef op : {"RNN", "GRU", "LSTM"})
    table[op] = {convertRecurrent};
}
