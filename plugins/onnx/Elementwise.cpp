//===- Elementwise.cpp - ONNX's elementwise ops ---------------------------===//
//
// Casts, Clip, and the numpy-broadcasting binary and variadic ops
// (arithmetic, comparisons, logic, Where), each a linalg.generic over the
// node's result; plus Constant and Identity. Unary ops are in Unary.cpp.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"
#include "InferNewOps.h"

#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

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
  // Logical on i1, bitwise (opset 18's Bitwise*) on other integers.
  if (op == "And" || op == "BitwiseAnd")
    return arith::AndIOp::create(b, loc, lhs, rhs).getResult();
  if (op == "Or" || op == "BitwiseOr")
    return arith::OrIOp::create(b, loc, lhs, rhs).getResult();
  if (op == "Xor" || op == "BitwiseXor")
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
  if (op == "PRelu" && inputs.size() == 2) {
    // A slope of one value per channel that numpy's rule would align with
    // the last dim (opset 6's form, which ONNX's version converter keeps):
    // along the channel dim, as PyTorch meant.
    auto x = cast<RankedTensorType>(inputs[0].getType());
    auto slope = cast<RankedTensorType>(inputs[1].getType());
    if (slope.getRank() == 1 && x.getRank() > 2 &&
        slope.getDimSize(0) == x.getDimSize(1) &&
        slope.getDimSize(0) != x.getDimSize(x.getRank() - 1) &&
        slope.getDimSize(0) != 1) {
      SmallVector<int64_t> shape(x.getRank() - 1, 1);
      shape[0] = slope.getDimSize(0);
      inputs[1] =
          reshapeTo(node.builder, node.getLoc(), inputs[1], slope.clone(shape));
    }
  }
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
  // Opset 18's, in Kiln's domain for ops ONNX 1.12 does not know.
  for (StringRef op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"})
    table[getConverterKey(kNewOpsDomain, op)] = {convertBinary};
  table["Where"] = {convertWhere};
}
