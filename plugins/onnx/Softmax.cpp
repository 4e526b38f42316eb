//===- Softmax.cpp - ONNX's softmax family and arg reductions -------------===//
//
// Softmax, LogSoftmax and Hardmax along one axis (opset 13's form), each
// from a max over the axis (and, for the first two, a sum of exponentials
// shifted by it); ArgMax and ArgMin as one reduction carrying the best
// value and its index.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A parallel linalg.generic over `type` reading `full` (of `type`'s
/// shape) and `reduced` (reduced over `axis`), its body `body`.
static Value
mapWithReduced(OpBuilder &b, Location loc, RankedTensorType type, Value full,
               ValueRange reduced, int64_t axis,
               function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  for (size_t i = 0; i < reduced.size(); ++i)
    maps.push_back(getReducedMap(b, rank, axis));
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<Value> inputs = {full};
  inputs.append(reduced.begin(), reduced.end());
  Value init = createEmptyLike(b, loc, type, full);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, inputs, ValueRange{init}, maps,
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, body(nb, l, args.drop_back()));
             })
      .getResult(0);
}

/// The largest element of `input` along `axis`, the axis dropped.
static Value reduceMax(OpBuilder &b, Location loc, Value input, int64_t axis) {
  Type element = getElementTypeOrSelf(input.getType());
  return reduce(b, loc, input, axis, getExtremeAttr(b, element, true, false),
                [](OpBuilder &nb, Location l, Value x, Value acc) {
                  return arith::MaximumFOp::create(nb, l, x, acc).getResult();
                });
}

Value onnx_plugin::buildSoftmax(OpBuilder &b, Location loc, Value input,
                                int64_t axis, bool logarithm) {
  auto type = cast<RankedTensorType>(input.getType());
  Type element = type.getElementType();
  // Exponentials shifted by the max, their sum, then divide (Softmax) or
  // subtract the log (LogSoftmax).
  Value max = reduceMax(b, loc, input, axis);
  Value exponentials =
      mapWithReduced(b, loc, type, input, max, axis,
                     [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                       Value shifted =
                           arith::SubFOp::create(nb, l, args[0], args[1]);
                       return math::ExpOp::create(nb, l, shifted);
                     });
  Value sum = reduce(b, loc, exponentials, axis, b.getZeroAttr(element),
                     [](OpBuilder &nb, Location l, Value x, Value acc) {
                       return arith::AddFOp::create(nb, l, x, acc).getResult();
                     });
  if (!logarithm)
    return mapWithReduced(
        b, loc, type, exponentials, sum, axis,
        [](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], args[1]);
        });
  return mapWithReduced(
      b, loc, type, input, ValueRange{max, sum}, axis,
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value shifted = arith::SubFOp::create(nb, l, args[0], args[1]);
        return arith::SubFOp::create(nb, l, shifted,
                                     math::LogOp::create(nb, l, args[2]));
      });
}

static LogicalResult convertSoftmax(NodeConverter &node,
                                    SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis"})))
    return failure();
  StringRef op = node.node.getOpType();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<int64_t> axis = node.getAxis("axis", -1, type->getRank());
  if (failed(axis))
    return failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  if (op == "Hardmax") {
    // 1 at the first maximum along the axis, 0 elsewhere: the first index
    // whose value equals the max.
    Value max = reduceMax(b, loc, input, *axis);
    Value first = reduce(
        b, loc,
        mapWithReduced(b, loc, type->clone(b.getI64Type()), input, max, *axis,
                       [&](OpBuilder &nb, Location l, ValueRange args) {
                         Value index = linalg::IndexOp::create(nb, l, *axis);
                         Value i = arith::IndexCastOp::create(
                             nb, l, nb.getI64Type(), index);
                         Value isMax = arith::CmpFOp::create(
                             nb, l, arith::CmpFPredicate::OEQ, args[0],
                             args[1]);
                         Value never = arith::ConstantOp::create(
                             nb, l, nb.getI64IntegerAttr(INT64_MAX));
                         return arith::SelectOp::create(nb, l, isMax, i, never)
                             .getResult();
                       }),
        *axis, b.getI64IntegerAttr(INT64_MAX),
        [](OpBuilder &nb, Location l, Value x, Value acc) {
          return arith::MinSIOp::create(nb, l, x, acc).getResult();
        });
    results.push_back(mapWithReduced(
        b, loc, *type, input, first, *axis,
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value index = linalg::IndexOp::create(nb, l, *axis);
          Value i = arith::IndexCastOp::create(nb, l, nb.getI64Type(), index);
          Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i,
                                            args[1]);
          return arith::UIToFPOp::create(nb, l, element, hit);
        }));
    return success();
  }
  results.push_back(buildSoftmax(b, loc, input, *axis, op == "LogSoftmax"));
  return success();
}

static LogicalResult convertArgMax(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis", "keepdims", "select_last_index"})))
    return failure();
  bool isMax = node.node.getOpType() == "ArgMax";
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  int64_t rank = inputType->getRank();
  FailureOr<int64_t> axis = node.getAxis("axis", 0, rank);
  FailureOr<int64_t> last = node.getInt("select_last_index", 0);
  if (failed(axis) || failed(last))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Type element = inputType->getElementType();
  bool isFloat = isa<FloatType>(element);
  bool isUnsigned = node.isUnsignedInput(0);

  // Two accumulators: the best value so far and its index.
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> shape;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(d == *axis ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
    if (d == *axis)
      continue;
    shape.push_back(inputType->getDimSize(d));
    sizes.push_back(inputType->isDynamicDim(d)
                        ? OpFoldResult(getDimSize(b, loc, input, d))
                        : b.getIndexAttr(inputType->getDimSize(d)));
  }
  auto fill = [&](TypedAttr value) {
    Value empty = tensor::EmptyOp::create(b, loc, sizes, value.getType());
    Value scalar = arith::ConstantOp::create(b, loc, value);
    return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
  };
  Value bestInit = fill(getExtremeAttr(b, element, isMax, isUnsigned));
  Value indexInit = fill(b.getI64IntegerAttr(0));
  AffineMap reducedMap = getReducedMap(b, rank, *axis);
  bool takeLast = *last;
  auto generic = linalg::GenericOp::create(
      b, loc,
      TypeRange{RankedTensorType::get(shape, element),
                RankedTensorType::get(shape, b.getI64Type())},
      ValueRange{input}, ValueRange{bestInit, indexInit},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank), reducedMap,
                          reducedMap},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value x = args[0], best = args[1], bestIndex = args[2];
        // Ties go to the first index, or the last with select_last_index.
        Value better;
        if (isFloat)
          better = arith::CmpFOp::create(
              nb, l,
              isMax ? (takeLast ? arith::CmpFPredicate::OGE
                                : arith::CmpFPredicate::OGT)
                    : (takeLast ? arith::CmpFPredicate::OLE
                                : arith::CmpFPredicate::OLT),
              x, best);
        else
          better = arith::CmpIOp::create(
              nb, l,
              isMax ? (takeLast ? (isUnsigned ? arith::CmpIPredicate::uge
                                              : arith::CmpIPredicate::sge)
                                : (isUnsigned ? arith::CmpIPredicate::ugt
                                              : arith::CmpIPredicate::sgt))
                    : (takeLast ? (isUnsigned ? arith::CmpIPredicate::ule
                                              : arith::CmpIPredicate::sle)
                                : (isUnsigned ? arith::CmpIPredicate::ult
                                              : arith::CmpIPredicate::slt)),
              x, best);
        Value index = linalg::IndexOp::create(nb, l, *axis);
        Value i = arith::IndexCastOp::create(nb, l, nb.getI64Type(), index);
        // The first element always wins, so an all -inf (or all NaN) run
        // still gives a valid index.
        Value first =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, index,
                                  arith::ConstantIndexOp::create(nb, l, 0));
        better = arith::OrIOp::create(nb, l, better, first);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, better, x, best),
                       arith::SelectOp::create(nb, l, better, i, bestIndex)});
      });
  Value result = reshapeTo(b, loc, generic.getResult(1), *type);
  if (!result)
    return node.error() << "cannot restore the reduced dim", failure();
  results.push_back(result);
  return success();
}

void onnx_plugin::addSoftmaxConverters(ConverterTable &table) {
  for (StringRef op : {"Softmax", "LogSoftmax", "Hardmax"})
    table[op] = {convertSoftmax};
  table["ArgMax"] = {convertArgMax};
  table["ArgMin"] = {convertArgMax};
}
