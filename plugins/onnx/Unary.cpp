//===- Unary.cpp - ONNX's unary math and activations ----------------------===//
//
// Each unary op (math functions, rounding, logic, activations with their
// attributes) as a linalg.generic over the node's result.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"
#include "InferNewOps.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

static LogicalResult convertUnary(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  StringRef op = node.node.getOpType();
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(resultType))
    return failure();
  Type inElement = getElementTypeOrSelf(node.input(0).getType());
  bool isFloat = isa<FloatType>(inElement);
  bool isUnsigned = node.isUnsignedInput(0);

  // Attributes first, each checked.
  float alpha = 0, beta = 0, gamma = 0;
  SmallVector<StringRef> known;
  auto readFloat = [&](StringRef name, float fallback, float &into) {
    known.push_back(name);
    FailureOr<float> value = node.getFloat(name, fallback);
    if (succeeded(value))
      into = *value;
    return succeeded(value);
  };
  bool ok = true;
  if (op == "LeakyRelu")
    ok = readFloat("alpha", 0.01f, alpha);
  else if (op == "Elu" || op == "ThresholdedRelu" || op == "Celu")
    ok = readFloat("alpha", 1.0f, alpha);
  else if (op == "Selu")
    ok = readFloat("alpha", 1.67326319217681884765625f, alpha) &&
         readFloat("gamma", 1.05070102214813232421875f, gamma);
  else if (op == "Shrink")
    ok = readFloat("lambd", 0.5f, alpha) && readFloat("bias", 0.0f, beta);
  else if (op == "HardSigmoid")
    ok = readFloat("alpha", 0.2f, alpha) && readFloat("beta", 0.5f, beta);
  if (!ok)
    return failure();
  int64_t detectNegative = 1, detectPositive = 1;
  if (op == "IsInf") {
    known.append({"detect_negative", "detect_positive"});
    FailureOr<int64_t> negative = node.getInt("detect_negative", 1);
    FailureOr<int64_t> positive = node.getInt("detect_positive", 1);
    if (failed(negative) || failed(positive))
      return failure();
    detectNegative = *negative;
    detectPositive = *positive;
  }
  if (failed(node.checkAttributes(known)))
    return failure();

  // Ops defined on integers too, and those on floats only.
  bool integerOk = llvm::is_contained(
      {"Abs", "Neg", "Relu", "Sign", "Not", "BitwiseNot"}, op);
  if (!isFloat && !integerOk)
    return node.error() << "input element type " << node.getInputElementType(0)
                        << " is not supported (floats only)",
           failure();

  Value result = buildElementwise(
      node.builder, node.getLoc(), *resultType, node.input(0),
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        Value x = args[0];
        Type t = x.getType();
        auto f = [&](double value) { return floatConstant(b, loc, t, value); };
        auto zero = [&]() -> Value {
          return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
        };
        if (op == "Abs")
          return isFloat      ? math::AbsFOp::create(b, loc, x).getResult()
                 : isUnsigned ? x
                              : math::AbsIOp::create(b, loc, x).getResult();
        if (op == "Neg")
          return isFloat ? arith::NegFOp::create(b, loc, x).getResult()
                         : arith::SubIOp::create(b, loc, zero(), x).getResult();
        if (op == "Relu")
          return isFloat
                     ? arith::MaximumFOp::create(b, loc, x, zero()).getResult()
                     : arith::MaxSIOp::create(b, loc, x, zero()).getResult();
        if (op == "Sign") {
          if (isFloat) {
            Value positive = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OGT, x, zero());
            Value negative = arith::CmpFOp::create(
                b, loc, arith::CmpFPredicate::OLT, x, zero());
            Value sign =
                arith::SelectOp::create(b, loc, positive, f(1), zero());
            sign = arith::SelectOp::create(b, loc, negative, f(-1), sign);
            // NaN stays NaN.
            Value nan =
                arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
            return arith::SelectOp::create(b, loc, nan, x, sign);
          }
          Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(t));
          Value positive =
              arith::CmpIOp::create(b, loc,
                                    isUnsigned ? arith::CmpIPredicate::ugt
                                               : arith::CmpIPredicate::sgt,
                                    x, zero());
          Value sign = arith::SelectOp::create(b, loc, positive, one, zero());
          if (isUnsigned)
            return sign;
          Value negative = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, x, zero());
          Value minusOne =
              arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
          return arith::SelectOp::create(b, loc, negative, minusOne, sign);
        }
        if (op == "Not" || op == "BitwiseNot") {
          // Every bit flipped: true and false for i1.
          Value ones =
              arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
          return arith::XOrIOp::create(b, loc, x, ones);
        }
        if (op == "Exp")
          return math::ExpOp::create(b, loc, x);
        if (op == "Log")
          return math::LogOp::create(b, loc, x);
        if (op == "Sqrt")
          return math::SqrtOp::create(b, loc, x);
        if (op == "Tanh")
          return math::TanhOp::create(b, loc, x);
        if (op == "Sin")
          return math::SinOp::create(b, loc, x);
        if (op == "Cos")
          return math::CosOp::create(b, loc, x);
        if (op == "Tan")
          return math::TanOp::create(b, loc, x);
        if (op == "Asin")
          return math::AsinOp::create(b, loc, x);
        if (op == "Acos")
          return math::AcosOp::create(b, loc, x);
        if (op == "Atan")
          return math::AtanOp::create(b, loc, x);
        if (op == "Sinh")
          return math::SinhOp::create(b, loc, x);
        if (op == "Cosh")
          return math::CoshOp::create(b, loc, x);
        // The inverse hyperbolics by their logarithms: Kiln's CPU backend
        // has no vector lowering of math.asinh, acosh and atanh.
        if (op == "Asinh" || op == "Acosh") {
          // sign(x) log(|x| + sqrt(x^2 + 1)); log(x + sqrt(x^2 - 1)).
          bool sinh = op == "Asinh";
          Value magnitude =
              sinh ? math::AbsFOp::create(b, loc, x).getResult() : x;
          Value square = arith::MulFOp::create(b, loc, x, x);
          Value shifted =
              sinh ? arith::AddFOp::create(b, loc, square, f(1)).getResult()
                   : arith::SubFOp::create(b, loc, square, f(1)).getResult();
          Value root = math::SqrtOp::create(b, loc, shifted);
          Value log = math::LogOp::create(
              b, loc, arith::AddFOp::create(b, loc, magnitude, root));
          return sinh ? math::CopySignOp::create(b, loc, log, x).getResult()
                      : log;
        }
        if (op == "Atanh") {
          // log((1 + x) / (1 - x)) / 2.
          Value ratio = arith::DivFOp::create(
              b, loc, arith::AddFOp::create(b, loc, f(1), x),
              arith::SubFOp::create(b, loc, f(1), x));
          return arith::MulFOp::create(
              b, loc, math::LogOp::create(b, loc, ratio), f(0.5));
        }
        if (op == "Floor")
          return math::FloorOp::create(b, loc, x);
        if (op == "Ceil")
          return math::CeilOp::create(b, loc, x);
        if (op == "Round")
          return math::RoundEvenOp::create(b, loc, x);
        if (op == "Erf")
          return math::ErfOp::create(b, loc, x);
        if (op == "Reciprocal")
          return arith::DivFOp::create(b, loc, f(1), x);
        if (op == "Sigmoid") {
          Value e =
              math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
          return arith::DivFOp::create(b, loc, f(1),
                                       arith::AddFOp::create(b, loc, f(1), e));
        }
        if (op == "Softplus")
          return math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, x));
        if (op == "Softsign")
          return arith::DivFOp::create(
              b, loc, x,
              arith::AddFOp::create(b, loc, f(1),
                                    math::AbsFOp::create(b, loc, x)));
        if (op == "IsNaN")
          return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
        if (op == "IsInf") {
          Value inf = f(std::numeric_limits<double>::infinity());
          Value positive =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x, inf);
          Value negative =
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, x,
                                    arith::NegFOp::create(b, loc, inf));
          Value no = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
          return arith::OrIOp::create(b, loc, detectPositive ? positive : no,
                                      detectNegative ? negative : no);
        }
        Value negative =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x, zero());
        if (op == "LeakyRelu")
          return arith::SelectOp::create(
              b, loc, negative, arith::MulFOp::create(b, loc, x, f(alpha)), x);
        if (op == "Elu" || op == "Celu") {
          // Elu: alpha * (exp(x) - 1); Celu: alpha * (exp(x / alpha) - 1).
          Value scaled =
              op == "Celu"
                  ? arith::DivFOp::create(b, loc, x, f(alpha)).getResult()
                  : x;
          Value em1 = math::ExpM1Op::create(b, loc, scaled);
          return arith::SelectOp::create(
              b, loc, negative, arith::MulFOp::create(b, loc, em1, f(alpha)),
              x);
        }
        if (op == "Selu") {
          Value em1 = math::ExpM1Op::create(b, loc, x);
          Value low = arith::MulFOp::create(b, loc, em1, f(alpha));
          Value selected = arith::SelectOp::create(
              b, loc,
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, x,
                                    zero()),
              low, x);
          return arith::MulFOp::create(b, loc, selected, f(gamma));
        }
        if (op == "Shrink") {
          // x + bias below -lambd, x - bias above lambd, 0 between.
          Value below = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                              x, f(-alpha));
          Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                              x, f(alpha));
          Value raised = arith::AddFOp::create(b, loc, x, f(beta));
          Value lowered = arith::SubFOp::create(b, loc, x, f(beta));
          return arith::SelectOp::create(
              b, loc, below, raised,
              arith::SelectOp::create(b, loc, above, lowered, zero()));
        }
        if (op == "ThresholdedRelu")
          return arith::SelectOp::create(
              b, loc,
              arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                    f(alpha)),
              x, zero());
        if (op == "HardSigmoid" || op == "HardSwish") {
          float a = op == "HardSwish" ? 1.0f / 6 : alpha;
          float c = op == "HardSwish" ? 0.5f : beta;
          Value y = arith::AddFOp::create(
              b, loc, arith::MulFOp::create(b, loc, x, f(a)), f(c));
          y = arith::MinimumFOp::create(
              b, loc, arith::MaximumFOp::create(b, loc, y, zero()), f(1));
          return op == "HardSwish"
                     ? arith::MulFOp::create(b, loc, x, y).getResult()
                     : y;
        }
        llvm_unreachable("a unary op without a body");
      });
  results.push_back(result);
  return success();
}

void onnx_plugin::addUnaryConverters(ConverterTable &table) {
  for (StringRef op :
       {"Abs",         "Neg",       "Relu",     "Sign",  "Not",
        "Exp",         "Log",       "Sqrt",     "Tanh",  "Sin",
        "Cos",         "Tan",       "Asin",     "Acos",  "Atan",
        "Sinh",        "Cosh",      "Asinh",    "Acosh", "Atanh",
        "Floor",       "Ceil",      "Round",    "Erf",   "Reciprocal",
        "Sigmoid",     "Softplus",  "Softsign", "IsNaN", "IsInf",
        "LeakyRelu",   "Elu",       "Celu",     "Selu",  "ThresholdedRelu",
        "HardSigmoid", "HardSwish", "Shrink"})
    table[op] = {convertUnary};
  // Opset 18's, in Kiln's domain for ops ONNX 1.12 does not know.
  table[getConverterKey(kNewOpsDomain, "BitwiseNot")] = {convertUnary};
}
