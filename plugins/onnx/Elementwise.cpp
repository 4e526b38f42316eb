//===- Elementwise.cpp - ONNX's elementwise ops ---------------------------===//
//
// Unary math, activations, casts, and the numpy-broadcasting binary and
// variadic ops (arithmetic, comparisons, logic, Where), each a
// linalg.generic over the node's result; plus Constant and Identity.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A float constant of `type` (a float type).
static Value floatConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

//===----------------------------------------------------------------------===//
// Constant and Identity
//===----------------------------------------------------------------------===//

static LogicalResult convertConstant(NodeConverter &node,
                                     SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes(
          {"value", "value_float", "value_int", "value_floats", "value_ints"})))
    return failure();
  OpBuilder &b = node.builder;
  auto type = dyn_cast<RankedTensorType>(node.getResultType(0));
  if (!type)
    return node.error() << "the constant's type is unknown", failure();
  Attribute value = node.getAttribute("value");
  TypedAttr typed;
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value)) {
    typed = dense.getElementType() == type.getElementType()
                ? dense
                : dense.bitcast(type.getElementType());
  } else if (auto resource =
                 dyn_cast_or_null<DenseResourceElementsAttr>(value)) {
    typed = DenseResourceElementsAttr::get(type, resource.getRawHandle());
  } else if (auto scalar = node.getAttribute("value_float")) {
    typed = DenseElementsAttr::get(type, cast<FloatAttr>(scalar).getValue());
  } else if (auto scalar = node.getAttribute("value_int")) {
    typed = DenseElementsAttr::get(
        type, APInt(64, cast<IntegerAttr>(scalar).getInt(), true));
  } else if (auto list = node.getAttribute("value_floats")) {
    SmallVector<float> values;
    for (Attribute element : cast<ArrayAttr>(list))
      values.push_back(cast<FloatAttr>(element).getValueAsDouble());
    typed = DenseElementsAttr::get(type, ArrayRef<float>(values));
  } else if (auto list = node.getAttribute("value_ints")) {
    SmallVector<int64_t> values;
    for (Attribute element : cast<ArrayAttr>(list))
      values.push_back(cast<IntegerAttr>(element).getInt());
    typed = DenseElementsAttr::get(type, ArrayRef<int64_t>(values));
  } else {
    return node.error() << "it has no value this importer reads (sparse "
                           "and string constants are not supported)",
           failure();
  }
  results.push_back(arith::ConstantOp::create(b, node.getLoc(), typed));
  return success();
}

static LogicalResult convertIdentity(NodeConverter &node,
                                     SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  results.push_back(node.input(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

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
  bool integerOk =
      llvm::is_contained({"Abs", "Neg", "Relu", "Sign", "Not"}, op);
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
        if (op == "Not") {
          Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(t));
          return arith::XOrIOp::create(b, loc, x, one);
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

static LogicalResult convertCast(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"to", "saturate"})))
    return failure();
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(resultType))
    return failure();
  bool fromUnsigned = node.isUnsignedInput(0);
  bool toUnsigned = getElementTypeOrSelf(node.node.getResult(0).getType())
                        .isUnsignedInteger();
  Type target = resultType->getElementType();
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *resultType, node.input(0),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        return castScalar(b, loc, args[0], target, fromUnsigned, toUnsigned);
      }));
  return success();
}

static LogicalResult convertClip(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(resultType))
    return failure();
  Type element = resultType->getElementType();
  bool isFloat = isa<FloatType>(element);
  bool isUnsigned = node.isUnsignedInput(0);
  std::optional<float> minAttr, maxAttr;
  if (node.getOpset() < 11) {
    // Before opset 11, the bounds are attributes.
    if (failed(node.checkAttributes({"min", "max"})))
      return failure();
    FailureOr<float> low = node.getFloat("min", -3.4028234663852886e38f);
    FailureOr<float> high = node.getFloat("max", 3.4028234663852886e38f);
    if (failed(low) || failed(high))
      return failure();
    minAttr = *low;
    maxAttr = *high;
  } else if (failed(node.checkAttributes({}))) {
    return failure();
  }
  bool hasMin = node.hasInput(1), hasMax = node.hasInput(2);
  for (unsigned i : {1u, 2u})
    if (node.hasInput(i)) {
      auto type = dyn_cast<RankedTensorType>(node.input(i).getType());
      if (!type || type.getRank() != 0)
        return node.error() << "input " << i << " must be a scalar", failure();
    }
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *resultType, node.input(0),
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        Value x = args[0];
        auto bound = [&](unsigned i, std::optional<float> attr) -> Value {
          if (attr)
            return floatConstant(b, loc, element, *attr);
          return tensor::ExtractOp::create(b, loc, node.input(i));
        };
        if (hasMin || minAttr) {
          Value low = bound(1, minAttr);
          x = isFloat ? arith::MaximumFOp::create(b, loc, x, low).getResult()
              : isUnsigned ? arith::MaxUIOp::create(b, loc, x, low).getResult()
                           : arith::MaxSIOp::create(b, loc, x, low).getResult();
        }
        if (hasMax || maxAttr) {
          Value high = bound(2, maxAttr);
          x = isFloat ? arith::MinimumFOp::create(b, loc, x, high).getResult()
              : isUnsigned
                  ? arith::MinUIOp::create(b, loc, x, high).getResult()
                  : arith::MinSIOp::create(b, loc, x, high).getResult();
        }
        return x;
      }));
  return success();
}

//===----------------------------------------------------------------------===//
// Binary and variadic
//===----------------------------------------------------------------------===//

/// `lhs op rhs` with the float, signed or unsigned op for their type.
template <typename FloatOp, typename SignedOp, typename UnsignedOp = SignedOp>
static Value createArith(OpBuilder &b, Location loc, Value lhs, Value rhs,
                         bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return FloatOp::create(b, loc, lhs, rhs);
  if (isUnsigned)
    return UnsignedOp::create(b, loc, lhs, rhs);
  return SignedOp::create(b, loc, lhs, rhs);
}

/// The element op of a binary ONNX op on `lhs` and `rhs` of one type.
static FailureOr<Value> buildBinary(NodeConverter &node, OpBuilder &b,
                                    Location loc, StringRef op, Value lhs,
                                    Value rhs, bool isUnsigned, int64_t fmod,
                                    bool shiftLeft) {
  Type t = lhs.getType();
  bool isFloat = isa<FloatType>(t);
  using P = arith::CmpIPredicate;
  using F = arith::CmpFPredicate;
  auto cmp = [&](P s, P u, F f) -> Value {
    if (isFloat)
      return arith::CmpFOp::create(b, loc, f, lhs, rhs);
    return arith::CmpIOp::create(b, loc, isUnsigned ? u : s, lhs, rhs);
  };
  if (op == "Add" || op == "Sum" || op == "Mean")
    return createArith<arith::AddFOp, arith::AddIOp>(b, loc, lhs, rhs,
                                                     isUnsigned);
  if (op == "Sub")
    return createArith<arith::SubFOp, arith::SubIOp>(b, loc, lhs, rhs,
                                                     isUnsigned);
  if (op == "Mul")
    return createArith<arith::MulFOp, arith::MulIOp>(b, loc, lhs, rhs,
                                                     isUnsigned);
  if (op == "Div")
    return createArith<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>(
        b, loc, lhs, rhs, isUnsigned);
  if (op == "Max")
    return createArith<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>(
        b, loc, lhs, rhs, isUnsigned);
  if (op == "Min")
    return createArith<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>(
        b, loc, lhs, rhs, isUnsigned);
  if (op == "Equal")
    return cmp(P::eq, P::eq, F::OEQ);
  if (op == "Less")
    return cmp(P::slt, P::ult, F::OLT);
  if (op == "LessOrEqual")
    return cmp(P::sle, P::ule, F::OLE);
  if (op == "Greater")
    return cmp(P::sgt, P::ugt, F::OGT);
  if (op == "GreaterOrEqual")
    return cmp(P::sge, P::uge, F::OGE);
  if (op == "And")
    return arith::AndIOp::create(b, loc, lhs, rhs).getResult();
  if (op == "Or")
    return arith::OrIOp::create(b, loc, lhs, rhs).getResult();
  if (op == "Xor")
    return arith::XOrIOp::create(b, loc, lhs, rhs).getResult();
  if (op == "BitShift")
    return shiftLeft ? arith::ShLIOp::create(b, loc, lhs, rhs).getResult()
                     : arith::ShRUIOp::create(b, loc, lhs, rhs).getResult();
  if (op == "Pow") {
    if (isFloat)
      return math::PowFOp::create(b, loc, lhs, rhs).getResult();
    // Integers through f64 (exact below 2^53): Kiln's CPU backend has no
    // lowering of math.ipowi.
    Type f64 = b.getF64Type();
    Value power = math::PowFOp::create(
        b, loc, castScalar(b, loc, lhs, f64, isUnsigned, false),
        castScalar(b, loc, rhs, f64, isUnsigned, false));
    return castScalar(b, loc, power, lhs.getType(), false, isUnsigned);
  }
  if (op == "Mod") {
    if (isFloat) {
      if (!fmod)
        return node.error() << "a float Mod needs fmod = 1", failure();
      return arith::RemFOp::create(b, loc, lhs, rhs).getResult();
    }
    if (isUnsigned)
      return arith::RemUIOp::create(b, loc, lhs, rhs).getResult();
    Value rem = arith::RemSIOp::create(b, loc, lhs, rhs);
    if (fmod)
      return rem;
    // Python's modulo: the result takes the divisor's sign.
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
    Value nonzero = arith::CmpIOp::create(b, loc, P::ne, rem, zero);
    Value signsDiffer = arith::CmpIOp::create(
        b, loc, P::slt, arith::XOrIOp::create(b, loc, rem, rhs), zero);
    Value adjust = arith::AndIOp::create(b, loc, nonzero, signsDiffer);
    return arith::SelectOp::create(b, loc, adjust,
                                   arith::AddIOp::create(b, loc, rem, rhs), rem)
        .getResult();
  }
  if (op == "PRelu") {
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
    if (isFloat) {
      Value negative = arith::CmpFOp::create(b, loc, F::OLT, lhs, zero);
      return arith::SelectOp::create(
                 b, loc, negative, arith::MulFOp::create(b, loc, lhs, rhs), lhs)
          .getResult();
    }
    Value negative = arith::CmpIOp::create(b, loc, P::slt, lhs, zero);
    return arith::SelectOp::create(b, loc, negative,
                                   arith::MulIOp::create(b, loc, lhs, rhs), lhs)
        .getResult();
  }
  llvm_unreachable("a binary op without a body");
}

static LogicalResult convertBinary(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  StringRef op = node.node.getOpType();
  SmallVector<StringRef> known;
  int64_t fmod = 0;
  bool shiftLeft = false;
  if (op == "Mod") {
    known.push_back("fmod");
    FailureOr<int64_t> value = node.getInt("fmod", 0);
    if (failed(value))
      return failure();
    fmod = *value;
  }
  if (op == "BitShift") {
    known.push_back("direction");
    FailureOr<std::string> direction = node.getString("direction", "");
    if (failed(direction))
      return failure();
    if (*direction != "LEFT" && *direction != "RIGHT")
      return node.error() << "attribute 'direction' must be LEFT or RIGHT",
             failure();
    shiftLeft = *direction == "LEFT";
  }
  // Opset 6 and older broadcast only with broadcast = 1 and an axis; Kiln
  // reads opset 7 on, where broadcasting is numpy's.
  if (failed(node.checkAttributes(known)))
    return failure();
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(resultType))
    return failure();
  SmallVector<Value> inputs;
  for (unsigned i = 0; i < node.getNumInputs(); ++i) {
    if (failed(node.getRankedInputType(i)))
      return failure();
    inputs.push_back(node.input(i));
  }
  if (inputs.empty())
    return node.error() << "it has no inputs", failure();
  bool isUnsigned = node.isUnsignedInput(0);
  Type element = getElementTypeOrSelf(inputs[0].getType());
  if (op == "Pow" && getElementTypeOrSelf(inputs[1].getType()) != element) {
    // Pow's exponent may have another type: compute in the base's.
    bool exponentUnsigned = node.isUnsignedInput(1);
    auto exponentType = cast<RankedTensorType>(inputs[1].getType());
    inputs[1] = buildElementwise(
        node.builder, node.getLoc(), exponentType.clone(element), inputs[1],
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], element, exponentUnsigned,
                            isUnsigned);
        });
  }
  bool failedBody = false;
  Value result = buildElementwise(
      node.builder, node.getLoc(), *resultType, inputs,
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        Value accumulated = args[0];
        for (Value next : args.drop_front()) {
          FailureOr<Value> value = buildBinary(
              node, b, loc, op, accumulated, next, isUnsigned, fmod, shiftLeft);
          if (failed(value)) {
            failedBody = true;
            return accumulated;
          }
          accumulated = *value;
        }
        if (op == "Mean")
          accumulated = arith::DivFOp::create(
              b, loc, accumulated,
              floatConstant(b, loc, accumulated.getType(), args.size()));
        return accumulated;
      });
  if (failedBody)
    return failure();
  results.push_back(result);
  return success();
}

static LogicalResult convertWhere(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(resultType))
    return failure();
  for (unsigned i = 0; i < 3; ++i)
    if (failed(node.getRankedInputType(i)))
      return failure();
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *resultType,
      {node.input(0), node.input(1), node.input(2)},
      [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      }));
  return success();
}

void onnx_plugin::addElementwiseConverters(ConverterTable &table) {
  table["Constant"] = {convertConstant};
  table["Identity"] = {convertIdentity};
  for (StringRef op :
       {"Abs",         "Neg",      "Relu",     "Sign",  "Not",
        "Exp",         "Log",      "Sqrt",     "Tanh",  "Sin",
        "Cos",         "Tan",      "Asin",     "Acos",  "Atan",
        "Sinh",        "Cosh",     "Asinh",    "Acosh", "Atanh",
        "Floor",       "Ceil",     "Round",    "Erf",   "Reciprocal",
        "Sigmoid",     "Softplus", "Softsign", "IsNaN", "IsInf",
        "LeakyRelu",   "Elu",      "Celu",     "Selu",  "ThresholdedRelu",
        "HardSigmoid", "HardSwish"})
    table[op] = {convertUnary};
  table["Cast"] = {convertCast};
  // The result type says what CastLike's second input says.
  table["CastLike"] = {convertCast};
  table["Clip"] = {convertClip};
  for (StringRef op :
       {"Add",   "Sub",  "Mul",         "Div",      "Pow",
        "Mod",   "Max",  "Min",         "Sum",      "Mean",
        "Equal", "Less", "LessOrEqual", "Greater",  "GreaterOrEqual",
        "And",   "Or",   "Xor",         "BitShift", "PRelu"})
    table[op] = {convertBinary};
  table["Where"] = {convertWhere};
}
