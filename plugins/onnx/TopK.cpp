//===- TopK.cpp - ONNX's TopK as ranks ------------------------------------===//
//
// TopK without a sort: each element's rank along the axis is the number of
// elements before it in the order (larger first, or smaller with
// largest=0; of equal ones, the lower index first, as ONNX asks), a
// reduction over a second index of the axis; output position r then
// gathers the element of rank r. Both are parallel generics, quadratic in
// the axis's length: meant for the short axes of classifiers and
// detection heads, not for sorting long ones.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

static LogicalResult convertTopK(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis", "largest", "sorted"})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> valuesType = node.getRankedResultType(0);
  FailureOr<RankedTensorType> indicesType = node.getRankedResultType(1);
  FailureOr<int64_t> largest = node.getInt("largest", 1);
  if (failed(inputType) || failed(valuesType) || failed(indicesType) ||
      failed(largest))
    return failure();
  int64_t rank = inputType->getRank();
  FailureOr<int64_t> axis = node.getAxis("axis", -1, rank);
  if (failed(axis))
    return failure();
  Type element = inputType->getElementType();
  bool isFloat = isa<FloatType>(element);
  bool isUnsigned = node.isUnsignedInput(0);
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  MLIRContext *context = b.getContext();
  int64_t a = *axis;
  auto fill = [&](TypedAttr value, Value empty) -> Value {
    Value scalar = arith::ConstantOp::create(b, loc, value);
    return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
  };

  // ranks[..., i, ...] = #{j : x[j] before x[i]}: loops (dims..., j).
  Type i64 = b.getI64Type();
  auto rankType = inputType->clone(i64);
  Value zeros =
      fill(b.getZeroAttr(i64), createEmptyOfDims(b, loc, rankType, input));
  SmallVector<AffineExpr> other;
  for (int64_t d = 0; d < rank; ++d)
    other.push_back(getAffineDimExpr(d == a ? rank : d, context));
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(rank + 1, context).getMajorSubMap(rank);
  SmallVector<utils::IteratorType> iterators = getParallelIterators(rank);
  iterators.push_back(utils::IteratorType::reduction);
  bool wantLargest = *largest != 0;
  Value ranks =
      linalg::GenericOp::create(
          b, loc, TypeRange{rankType}, ValueRange{input, input}, zeros,
          ArrayRef<AffineMap>{
              identity, AffineMap::get(rank + 1, 0, other, context), identity},
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value x = args[0], y = args[1];
            // y (at j) comes before x (at i).
            Value beats, equal;
            if (isFloat) {
              beats =
                  arith::CmpFOp::create(nb, l,
                                        wantLargest ? arith::CmpFPredicate::OGT
                                                    : arith::CmpFPredicate::OLT,
                                        y, x);
              equal =
                  arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, y, x);
            } else {
              arith::CmpIPredicate predicate =
                  wantLargest ? (isUnsigned ? arith::CmpIPredicate::ugt
                                            : arith::CmpIPredicate::sgt)
                              : (isUnsigned ? arith::CmpIPredicate::ult
                                            : arith::CmpIPredicate::slt);
              beats = arith::CmpIOp::create(nb, l, predicate, y, x);
              equal =
                  arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, y, x);
            }
            Value earlier =
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult,
                                      linalg::IndexOp::create(nb, l, rank),
                                      linalg::IndexOp::create(nb, l, a));
            Value before = arith::OrIOp::create(
                nb, l, beats, arith::AndIOp::create(nb, l, equal, earlier));
            Value one = arith::ExtUIOp::create(nb, l, i64, before);
            linalg::YieldOp::create(
                nb, l, ValueRange{arith::AddIOp::create(nb, l, args[2], one)});
          })
          .getResult(0);

  // Output position r along the axis: the element of rank r; loops
  // (dims with r at the axis..., i).
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!valuesType->isDynamicDim(d))
      continue;
    if (d != a) {
      dynamicSizes.push_back(getDimSize(b, loc, input, d));
      continue;
    }
    // K known only at run time.
    Value k = tensor::ExtractOp::create(
        b, loc, node.input(1),
        ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
    dynamicSizes.push_back(
        arith::IndexCastOp::create(b, loc, b.getIndexType(), k));
  }
  Value valuesInit =
      fill(b.getZeroAttr(element),
           tensor::EmptyOp::create(b, loc, *valuesType, dynamicSizes));
  Type indexElement = indicesType->getElementType();
  Value indicesInit =
      fill(b.getZeroAttr(indexElement),
           tensor::EmptyOp::create(b, loc, indicesType->clone(indexElement),
                                   dynamicSizes));
  auto gather = linalg::GenericOp::create(
      b, loc,
      TypeRange{valuesType->clone(element), indicesType->clone(indexElement)},
      ValueRange{input, ranks}, ValueRange{valuesInit, indicesInit},
      ArrayRef<AffineMap>{AffineMap::get(rank + 1, 0, other, context),
                          AffineMap::get(rank + 1, 0, other, context), identity,
                          identity},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value position = arith::IndexCastOp::create(
            nb, l, i64, linalg::IndexOp::create(nb, l, a));
        Value here = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                           args[1], position);
        Value index = arith::IndexCastOp::create(
            nb, l, indexElement, linalg::IndexOp::create(nb, l, rank));
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, here, args[0], args[2]),
                       arith::SelectOp::create(nb, l, here, index, args[3])});
      });
  results.push_back(gather.getResult(0));
  results.push_back(gather.getResult(1));
  return success();
}

void onnx_plugin::addTopKConverters(ConverterTable &table) {
  table["TopK"] = {convertTopK};
}
