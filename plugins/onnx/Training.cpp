//===- Training.cpp - ONNX's optimizers (ai.onnx.preview.training) --------===//
//
// Adagrad, Adam and Momentum update n tensors in one node: inputs R (the
// learning rate), T (the step count), then n of each of X, G and the
// optimizer's state; outputs the n new X, then the n of each new state.
// Every output is elementwise in its tensor's X, G and state, with R and T
// read as scalars, so each becomes one linalg.generic that computes what
// it needs of the others (X' recomputes H' rather than reading it).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// The per-element values of one tensor's update in a generic's body: the
/// scalars R and T (T as a float) and the tensor's X, G and states.
struct Elements {
  Value rate, step, x, g;
  ValueRange states;
};

using UpdateBody = function_ref<Value(OpBuilder &, Location, const Elements &)>;
} // namespace

/// The optimizer's tensors: `stateCount` states after X and G, the same
/// number of each, after R and T. Fails with an error when the inputs do
/// not split so or the outputs do not match.
static FailureOr<int64_t> getTensorCount(NodeConverter &node,
                                         unsigned stateCount) {
  unsigned perTensor = 2 + stateCount;
  unsigned inputs = node.getNumInputs();
  if (inputs < 2 + perTensor || (inputs - 2) % perTensor != 0)
    return node.error() << "expects R, T and then " << perTensor
                        << " inputs per optimized tensor; got " << inputs
                        << " inputs",
           failure();
  int64_t count = (inputs - 2) / perTensor;
  if (node.getNumResults() != count * (1 + stateCount))
    return node.error() << "updates " << count << " tensors, so it needs "
                        << count * (1 + stateCount) << " outputs; it has "
                        << node.getNumResults(),
           failure();
  for (unsigned i = 0; i < inputs; ++i)
    if (!node.hasInput(i))
      return node.error() << "input " << i << " is missing", failure();
  for (unsigned i : {0u, 1u}) {
    FailureOr<RankedTensorType> scalar = node.getRankedInputType(i);
    if (failed(scalar))
      return failure();
    if (scalar->getNumElements() != 1)
      return node.error() << "input " << i << " (" << (i ? "T" : "R")
                          << ") must be a scalar; it has type " << *scalar,
             failure();
  }
  return count;
}

/// Builds output `output` for each tensor with `body`: one elementwise
/// generic over the tensor's X, G and states, R and T broadcast.
static LogicalResult buildUpdates(NodeConverter &node, unsigned stateCount,
                                  ArrayRef<UpdateBody> bodies,
                                  SmallVectorImpl<Value> &results) {
  FailureOr<int64_t> count = getTensorCount(node, stateCount);
  if (failed(count))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  results.resize(node.getNumResults());
  for (int64_t t = 0; t < *count; ++t) {
    SmallVector<Value> inputs = {node.input(0), node.input(1)};
    for (unsigned k = 0; k < 2 + stateCount; ++k)
      inputs.push_back(node.input(2 + k * *count + t));
    for (unsigned o = 0; o < bodies.size(); ++o) {
      UpdateBody body = bodies[o];
      FailureOr<RankedTensorType> type =
          node.getRankedResultType(o * *count + t);
      if (failed(type))
        return failure();
      Type element = type->getElementType();
      if (!isa<FloatType>(element))
        return node.error() << "updates tensors of floats; output "
                            << o * *count + t << " has type " << *type,
               failure();
      results[o * *count + t] = buildElementwise(
          b, loc, *type, inputs,
          [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
            Elements elements;
            elements.rate = castScalar(nb, l, args[0], element, false, false);
            elements.step = castScalar(nb, l, args[1], element,
                                       node.isUnsignedInput(1), false);
            elements.x = args[2];
            elements.g = args[3];
            elements.states = args.drop_front(4);
            return body(nb, l, elements);
          });
    }
  }
  return success();
}

/// norm_coefficient * X + G: the gradient with its L2 regularization.
static Value regularize(OpBuilder &b, Location loc, const Elements &e,
                        float norm) {
  Value coefficient = floatConstant(b, loc, e.x.getType(), norm);
  return arith::AddFOp::create(
      b, loc, arith::MulFOp::create(b, loc, coefficient, e.x), e.g);
}

/// `ifPositive` when the step count T is positive, `otherwise` at T = 0.
static Value selectOnFirstStep(OpBuilder &b, Location loc, const Elements &e,
                               Value ifPositive, Value otherwise) {
  Value zero = floatConstant(b, loc, e.step.getType(), 0.0);
  Value positive =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, e.step, zero);
  return arith::SelectOp::create(b, loc, positive, ifPositive, otherwise);
}

// Adagrad: H' = H + g², X' = X - R / (1 + T decay) * g / (sqrt(H') + eps),
// g = norm X + G.
static LogicalResult convertAdagrad(NodeConverter &node,
                                    SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes(
          {"decay_factor", "epsilon", "norm_coefficient"})))
    return failure();
  FailureOr<float> decay = node.getFloat("decay_factor", 0.0f);
  FailureOr<float> epsilon = node.getFloat("epsilon", 1e-6f);
  FailureOr<float> norm = node.getFloat("norm_coefficient", 0.0f);
  if (failed(decay) || failed(epsilon) || failed(norm))
    return failure();
  auto newH = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    Value g = regularize(b, l, e, *norm);
    return arith::AddFOp::create(b, l, e.states[0],
                                 arith::MulFOp::create(b, l, g, g));
  };
  auto newX = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    Type type = e.x.getType();
    Value g = regularize(b, l, e, *norm);
    Value h = newH(b, l, e);
    Value scale = arith::AddFOp::create(b, l, math::SqrtOp::create(b, l, h),
                                        floatConstant(b, l, type, *epsilon));
    Value denominator = arith::AddFOp::create(
        b, l, floatConstant(b, l, type, 1.0),
        arith::MulFOp::create(b, l, e.step, floatConstant(b, l, type, *decay)));
    Value rate = arith::DivFOp::create(b, l, e.rate, denominator);
    Value step = arith::DivFOp::create(
        b, l, arith::MulFOp::create(b, l, rate, g), scale);
    return arith::SubFOp::create(b, l, e.x, step);
  };
  return buildUpdates(node, 1, {newX, newH}, results);
}

// Momentum: V' = alpha V + beta' g (beta' = 1 at T = 0); X' = X - R V'
// ("standard") or X - R (g + alpha V') ("nesterov"); g = norm X + G.
static LogicalResult convertMomentum(NodeConverter &node,
                                     SmallVectorImpl<Value> &results) {
  if (failed(
          node.checkAttributes({"alpha", "beta", "mode", "norm_coefficient"})))
    return failure();
  // All four are required: ONNX gives them no defaults.
  for (StringRef name : {"alpha", "beta", "mode", "norm_coefficient"})
    if (!node.getAttribute(name))
      return node.error() << "attribute '" << name << "' is required",
             failure();
  FailureOr<float> alpha = node.getFloat("alpha", 0.0f);
  FailureOr<float> beta = node.getFloat("beta", 0.0f);
  FailureOr<float> norm = node.getFloat("norm_coefficient", 0.0f);
  FailureOr<std::string> mode = node.getString("mode", "");
  if (failed(alpha) || failed(beta) || failed(norm) || failed(mode))
    return failure();
  if (*mode != "standard" && *mode != "nesterov")
    return node.error() << "mode '" << *mode
                        << "' is neither 'standard' nor 'nesterov'",
           failure();
  bool nesterov = *mode == "nesterov";
  auto newV = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    Type type = e.x.getType();
    Value g = regularize(b, l, e, *norm);
    Value betaAdjusted =
        selectOnFirstStep(b, l, e, floatConstant(b, l, type, *beta),
                          floatConstant(b, l, type, 1.0));
    return arith::AddFOp::create(
        b, l,
        arith::MulFOp::create(b, l, floatConstant(b, l, type, *alpha),
                              e.states[0]),
        arith::MulFOp::create(b, l, betaAdjusted, g));
  };
  auto newX = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    Value v = newV(b, l, e);
    Value direction = v;
    if (nesterov)
      direction = arith::AddFOp::create(
          b, l, regularize(b, l, e, *norm),
          arith::MulFOp::create(b, l,
                                floatConstant(b, l, e.x.getType(), *alpha), v));
    return arith::SubFOp::create(
        b, l, e.x, arith::MulFOp::create(b, l, e.rate, direction));
  };
  return buildUpdates(node, 1, {newX, newV}, results);
}

// Adam: V' = alpha V + (1 - alpha) g, H' = beta H + (1 - beta) g²,
// R' = R sqrt(1 - beta^T) / (1 - alpha^T) (R at T = 0),
// X' = (1 - norm_post) (X - R' V' / (sqrt(H') + eps)); g = norm X + G.
static LogicalResult convertAdam(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(
          node.checkAttributes({"alpha", "beta", "epsilon", "norm_coefficient",
                                "norm_coefficient_post"})))
    return failure();
  FailureOr<float> alpha = node.getFloat("alpha", 0.9f);
  FailureOr<float> beta = node.getFloat("beta", 0.999f);
  FailureOr<float> epsilon = node.getFloat("epsilon", 1e-6f);
  FailureOr<float> norm = node.getFloat("norm_coefficient", 0.0f);
  FailureOr<float> post = node.getFloat("norm_coefficient_post", 0.0f);
  if (failed(alpha) || failed(beta) || failed(epsilon) || failed(norm) ||
      failed(post))
    return failure();
  // weight * state + (1 - weight) * update.
  auto blend = [](OpBuilder &b, Location l, float weight, Value state,
                  Value update) -> Value {
    Type type = state.getType();
    return arith::AddFOp::create(
        b, l,
        arith::MulFOp::create(b, l, floatConstant(b, l, type, weight), state),
        arith::MulFOp::create(b, l, floatConstant(b, l, type, 1.0 - weight),
                              update));
  };
  auto newV = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    return blend(b, l, *alpha, e.states[0], regularize(b, l, e, *norm));
  };
  auto newH = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    Value g = regularize(b, l, e, *norm);
    return blend(b, l, *beta, e.states[1], arith::MulFOp::create(b, l, g, g));
  };
  auto newX = [&](OpBuilder &b, Location l, const Elements &e) -> Value {
    Type type = e.x.getType();
    Value one = floatConstant(b, l, type, 1.0);
    // 1 - base^T.
    auto correction = [&](float base) -> Value {
      Value power =
          math::PowFOp::create(b, l, floatConstant(b, l, type, base), e.step);
      return arith::SubFOp::create(b, l, one, power);
    };
    Value corrected = arith::DivFOp::create(
        b, l,
        arith::MulFOp::create(b, l, e.rate,
                              math::SqrtOp::create(b, l, correction(*beta))),
        correction(*alpha));
    Value rate = selectOnFirstStep(b, l, e, corrected, e.rate);
    Value scale =
        arith::AddFOp::create(b, l, math::SqrtOp::create(b, l, newH(b, l, e)),
                              floatConstant(b, l, type, *epsilon));
    Value step = arith::MulFOp::create(
        b, l, rate, arith::DivFOp::create(b, l, newV(b, l, e), scale));
    Value x = arith::SubFOp::create(b, l, e.x, step);
    return arith::MulFOp::create(b, l, floatConstant(b, l, type, 1.0 - *post),
                                 x);
  };
  return buildUpdates(node, 2, {newX, newV, newH}, results);
}

void onnx_plugin::addTrainingConverters(ConverterTable &table) {
  table[getConverterKey(kTrainingDomain, "Adagrad")] = {convertAdagrad};
  table[getConverterKey(kTrainingDomain, "Adam")] = {convertAdam};
  table[getConverterKey(kTrainingDomain, "Momentum")] = {convertMomentum};
}
