//===- Generators.cpp - ONNX's ops computed from positions ----------------===//
//
// EyeLike, OneHot and the windows (Hann, Hamming, Blackman), whose
// elements follow from their indices, and
// CumSum, a running sum along one axis written as a reduction over a
// second index of that axis (each output element sums the input elements
// before it).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

static LogicalResult convertEyeLike(NodeConverter &node,
                                    SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"dtype", "k"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<int64_t> k = node.getInt("k", 0);
  if (failed(type) || failed(k))
    return failure();
  if (type->getRank() != 2)
    return node.error() << "it needs a 2-D input", failure();
  Type element = type->getElementType();
  int64_t diagonal = *k;
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *type, node.input(0),
      [&](OpBuilder &b, Location loc, ValueRange) -> Value {
        Value row = linalg::IndexOp::create(b, loc, 0);
        Value column = linalg::IndexOp::create(b, loc, 1);
        Value offset = arith::SubIOp::create(b, loc, column, row);
        Value on = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq, offset,
            arith::ConstantIndexOp::create(b, loc, diagonal));
        Value one = arith::ConstantOp::create(b, loc, b.getOneAttr(element));
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
        return arith::SelectOp::create(b, loc, on, one, zero);
      }));
  return success();
}

static LogicalResult convertOneHot(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> indicesType = node.getRankedInputType(0);
  if (failed(type) || failed(indicesType))
    return failure();
  int64_t rank = type->getRank();
  FailureOr<int64_t> axis = node.getAxis("axis", -1, rank);
  if (failed(axis))
    return failure();
  if (type->isDynamicDim(*axis))
    return node.error() << "input 1 (depth) must be a constant", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value values = node.input(2);
  Value off = tensor::ExtractOp::create(
      b, loc, values, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
  Value on = tensor::ExtractOp::create(
      b, loc, values, ValueRange{arith::ConstantIndexOp::create(b, loc, 1)});
  int64_t depth = type->getDimSize(*axis);
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis)
      exprs.push_back(b.getAffineDimExpr(d));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t from = d < *axis ? d : d - 1;
    sizes.push_back(type->isDynamicDim(d)
                        ? OpFoldResult(getDimSize(b, loc, node.input(0), from))
                        : b.getIndexAttr(type->getDimSize(d)));
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, type->getElementType());
  bool isUnsigned = node.isUnsignedInput(0);
  int64_t axisValue = *axis;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{node.input(0)}, ValueRange{init},
      ArrayRef<AffineMap>{AffineMap::get(rank, 0, exprs, b.getContext()),
                          b.getMultiDimIdentityMap(rank)},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        // The index as an integer, negative ones counted from depth.
        Value index =
            castScalar(nb, l, args[0], nb.getI64Type(), isUnsigned, false);
        Value depthValue =
            arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(depth));
        Value zero = arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(0));
        Value negative = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               index, zero);
        index = arith::SelectOp::create(
            nb, l, negative, arith::AddIOp::create(nb, l, index, depthValue),
            index);
        Value position = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axisValue));
        Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                          index, position);
        linalg::YieldOp::create(
            nb, l, ValueRange{arith::SelectOp::create(nb, l, hit, on, off)});
      });
  results.push_back(generic.getResult(0));
  return success();
}

/// The running sums of `input` along `axis`.
static Value buildCumSum(OpBuilder &b, Location loc, Value input,
                         RankedTensorType type, int64_t axis, bool exclusive,
                         bool reverse) {
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  // Loops: the output's dims, then k along the axis (a reduction); out[i]
  // sums x[..., k, ...] for k before i (after it with reverse; i itself
  // unless exclusive).
  SmallVector<AffineExpr> inputExprs;
  for (int64_t d = 0; d < rank; ++d)
    inputExprs.push_back(b.getAffineDimExpr(d == axis ? rank : d));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Value empty = createEmptyLike(b, loc, type, input);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  arith::CmpIPredicate predicate =
      reverse
          ? (exclusive ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::uge)
          : (exclusive ? arith::CmpIPredicate::ult : arith::CmpIPredicate::ule);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init},
             ArrayRef<AffineMap>{
                 AffineMap::get(rank + 1, 0, inputExprs, b.getContext()),
                 AffineMap::getMultiDimIdentityMap(rank + 1, b.getContext())
                     .dropResult(rank)},
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value k = linalg::IndexOp::create(nb, l, rank);
               Value i = linalg::IndexOp::create(nb, l, axis);
               Value counted = arith::CmpIOp::create(nb, l, predicate, k, i);
               Value none =
                   arith::ConstantOp::create(nb, l, nb.getZeroAttr(element));
               Value term =
                   arith::SelectOp::create(nb, l, counted, args[0], none);
               Value sum =
                   isFloat
                       ? arith::AddFOp::create(nb, l, args[1], term).getResult()
                       : arith::AddIOp::create(nb, l, args[1], term)
                             .getResult();
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

static LogicalResult convertCumSum(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"exclusive", "reverse"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<int64_t> exclusive = node.getInt("exclusive", 0);
  FailureOr<int64_t> reverse = node.getInt("reverse", 0);
  if (failed(type) || failed(exclusive) || failed(reverse))
    return failure();
  int64_t rank = type->getRank();
  if (rank == 0)
    return node.error() << "it needs an input of rank 1+", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  if (std::optional<SmallVector<int64_t>> axes =
          matchConstantInts(node.input(1))) {
    if (axes->size() != 1)
      return node.error() << "input 1 (axis) must hold one value", failure();
    FailureOr<int64_t> axis = node.normalizeAxis((*axes)[0], rank, "axis");
    if (failed(axis))
      return failure();
    results.push_back(
        buildCumSum(b, loc, input, *type, *axis, *exclusive, *reverse));
    return success();
  }
  // An axis known at run time: the sums along each axis, the one it names
  // picked (negative axes counted from the end).
  Value axis = castScalar(
      b, loc,
      tensor::ExtractOp::create(
          b, loc, node.input(1),
          cast<RankedTensorType>(node.input(1).getType()).getRank() == 1
              ? ValueRange{arith::ConstantIndexOp::create(b, loc, 0)}
              : ValueRange{}),
      b.getI64Type(), false, false);
  node.require(
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::sge, axis,
              arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(-rank))),
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, axis,
              arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(rank)))),
      "its axis (input 1) is {0}, outside [-" + Twine(rank) + ", " +
          Twine(rank) + ") for an input of rank " + Twine(rank),
      {axis});
  Value result;
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value sums = buildCumSum(b, loc, input, *type, d, *exclusive, *reverse);
    if (!result) {
      result = sums;
      continue;
    }
    auto is = [&](int64_t value) {
      return arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, axis,
          arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value)));
    };
    Value named = arith::OrIOp::create(b, loc, is(d), is(d - rank));
    result = arith::SelectOp::create(b, loc, named, sums, result);
  }
  results.push_back(result);
  return success();
}

/// HannWindow, HammingWindow and BlackmanWindow: a sum of cosines of
/// 2 pi n / N, N the size (periodic) or the size less one (symmetric).
static LogicalResult convertWindow(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"output_datatype", "periodic"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<int64_t> periodic = node.getInt("periodic", 1);
  if (failed(type) || failed(periodic))
    return failure();
  Type element = type->getElementType();
  if (type->getRank() != 1 || !isa<FloatType>(element))
    return node.error() << "it must make a 1-D float tensor", failure();
  // The cosines' coefficients: a0 - a1 cos(x) + a2 cos(2x).
  StringRef op = node.node.getOpType();
  double a0 = 0.5, a1 = 0.5, a2 = 0.0;
  if (op == "HammingWindow") {
    a0 = 25.0 / 46.0;
    a1 = 1.0 - a0;
  } else if (op == "BlackmanWindow") {
    a0 = 0.42;
    a2 = 0.08;
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value size = tensor::ExtractOp::create(b, loc, node.input(0), ValueRange{});
  Value count = arith::IndexCastOp::create(b, loc, b.getIndexType(), size);
  SmallVector<Value> dynamicSizes;
  if (type->isDynamicDim(0))
    dynamicSizes.push_back(count);
  Value init = tensor::EmptyOp::create(b, loc, *type, dynamicSizes);
  // Computed in f64 and rounded once.
  Type f64 = b.getF64Type();
  Value period = castScalar(b, loc, size, f64, false, false);
  if (!*periodic)
    period =
        arith::SubFOp::create(b, loc, period, floatConstant(b, loc, f64, 1));
  results.push_back(
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, ValueRange{}, init,
          ArrayRef<AffineMap>{b.getMultiDimIdentityMap(1)},
          getParallelIterators(1),
          [&](OpBuilder &nb, Location l, ValueRange) {
            Value n = linalg::IndexOp::create(nb, l, 0);
            Value position = arith::UIToFPOp::create(
                nb, l, f64,
                arith::IndexCastUIOp::create(nb, l, nb.getI64Type(), n));
            Value angle = arith::DivFOp::create(
                nb, l,
                arith::MulFOp::create(nb, l, position,
                                      floatConstant(nb, l, f64, 2 * M_PI)),
                period);
            Value value = arith::SubFOp::create(
                nb, l, floatConstant(nb, l, f64, a0),
                arith::MulFOp::create(nb, l, floatConstant(nb, l, f64, a1),
                                      math::CosOp::create(nb, l, angle)));
            if (a2 != 0.0) {
              Value twice = arith::AddFOp::create(nb, l, angle, angle);
              value = arith::AddFOp::create(
                  nb, l, value,
                  arith::MulFOp::create(nb, l, floatConstant(nb, l, f64, a2),
                                        math::CosOp::create(nb, l, twice)));
            }
            linalg::YieldOp::create(
                nb, l, castScalar(nb, l, value, element, false, false));
          })
          .getResult(0));
  return success();
}

void onnx_plugin::addGeneratorConverters(ConverterTable &table) {
  table["EyeLike"] = {convertEyeLike};
  table["OneHot"] = {convertOneHot};
  table["CumSum"] = {convertCumSum};
  for (StringRef op : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    table[op] = {convertWindow};
}
