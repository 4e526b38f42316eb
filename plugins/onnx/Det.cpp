//===- Det.cpp - ONNX's Det -----------------------------------------------===//
//
// Det of [..., n, n] float matrices by Gaussian elimination with partial
// pivoting, unrolled over the n - 1 columns (n must be static): per
// column, a reduction finds each matrix's pivot row (the largest
// magnitude at or below the diagonal), and one generic swaps it with the
// diagonal's row and eliminates below, reading the swapped rows by
// tensor.extract; a sign flips per swap. The determinant is the sign
// times the product of the diagonal. A zero pivot (a singular matrix)
// eliminates nothing and leaves a zero on the diagonal.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Unrolling is quadratic in n: larger matrices are refused.
constexpr int64_t kMaxDetSize = 64;

static LogicalResult convertDet(NodeConverter &node,
                                SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(inputType) || failed(type))
    return failure();
  int64_t rank = inputType->getRank();
  Type element = inputType->getElementType();
  if (rank < 2 || !isa<FloatType>(element))
    return node.error() << "takes float matrices [..., n, n]; got "
                        << *inputType,
           failure();
  int64_t n = inputType->getDimSize(rank - 1);
  if (ShapedType::isDynamic(n) || inputType->getDimSize(rank - 2) != n ||
      n < 1 || n > kMaxDetSize)
    return node.error() << "takes square matrices of a static size from 1 "
                           "to "
                        << kMaxDetSize << "; got " << *inputType,
           failure();

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  MLIRContext *context = b.getContext();
  int64_t batchRank = rank - 2;
  auto batchType =
      RankedTensorType::get(inputType->getShape().drop_back(2), element);
  Value matrix = node.input(0);
  auto dim = [&](int64_t d) { return getAffineDimExpr(d, context); };
  // The batch dims, the leading loops of every generic here.
  auto batchExprs = [&]() {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < batchRank; ++d)
      exprs.push_back(dim(d));
    return exprs;
  };
  auto index = [](OpBuilder &nb, Location l, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, l, v);
  };
  Value sign =
      linalg::FillOp::create(b, loc, floatConstant(b, loc, element, 1.0),
                             createEmptyOfDims(b, loc, batchType, matrix))
          .getResult(0);
  auto indexBatchType =
      RankedTensorType::get(batchType.getShape(), b.getIndexType());
  for (int64_t j = 0; j + 1 < n; ++j) {
    // The pivot row of column j: over (batch..., i), i at or below j.
    SmallVector<AffineExpr> column = batchExprs();
    column.append({dim(batchRank), getAffineConstantExpr(j, context)});
    SmallVector<AffineMap> pivotMaps = {
        AffineMap::get(batchRank + 1, 0, column, context),
        AffineMap::get(batchRank + 1, 0, batchExprs(), context),
        AffineMap::get(batchRank + 1, 0, batchExprs(), context)};
    SmallVector<utils::IteratorType> pivotIterators =
        getParallelIterators(batchRank);
    pivotIterators.push_back(utils::IteratorType::reduction);
    Value bestInit =
        linalg::FillOp::create(b, loc, floatConstant(b, loc, element, -1.0),
                               createEmptyOfDims(b, loc, batchType, matrix))
            .getResult(0);
    Value rowInit = linalg::FillOp::create(
                        b, loc, index(b, loc, j),
                        createEmptyOfDims(b, loc, indexBatchType, matrix))
                        .getResult(0);
    Value pivot =
        linalg::GenericOp::create(
            b, loc, TypeRange{batchType, indexBatchType}, ValueRange{matrix},
            ValueRange{bestInit, rowInit}, pivotMaps, pivotIterators,
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value i = linalg::IndexOp::create(nb, l, batchRank);
              Value magnitude = math::AbsFOp::create(nb, l, args[0]);
              Value larger = arith::AndIOp::create(
                  nb, l,
                  arith::CmpIOp::create(nb, l, arith::CmpIPredicate::uge, i,
                                        index(nb, l, j)),
                  arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT,
                                        magnitude, args[1]));
              linalg::YieldOp::create(
                  nb, l,
                  ValueRange{
                      arith::SelectOp::create(nb, l, larger, magnitude,
                                              args[1]),
                      arith::SelectOp::create(nb, l, larger, i, args[2])});
            })
            .getResult(1);

    // Rows j and p swapped, then rows below j less their multiple of row
    // j: over (batch..., r, c), every element read from the old matrix.
    SmallVector<AffineMap> stepMaps = {
        AffineMap::get(rank, 0, batchExprs(), context),
        AffineMap::getMultiDimIdentityMap(rank, context)};
    matrix =
        linalg::GenericOp::create(
            b, loc, TypeRange{matrix.getType()}, ValueRange{pivot},
            ValueRange{createEmptyOfDims(
                b, loc, cast<RankedTensorType>(matrix.getType()), matrix)},
            stepMaps, getParallelIterators(rank),
            [&, old = matrix](OpBuilder &nb, Location l, ValueRange args) {
              Value p = args[0];
              SmallVector<Value> batch;
              for (int64_t d = 0; d < batchRank; ++d)
                batch.push_back(linalg::IndexOp::create(nb, l, d));
              Value r = linalg::IndexOp::create(nb, l, batchRank);
              Value c = linalg::IndexOp::create(nb, l, batchRank + 1);
              Value jIndex = index(nb, l, j);
              // The swapped matrix's element (row, col).
              auto swapped = [&](Value row, Value col) -> Value {
                Value isJ = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::eq, row, jIndex);
                Value isP = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::eq, row, p);
                Value source = arith::SelectOp::create(
                    nb, l, isJ, p,
                    arith::SelectOp::create(nb, l, isP, jIndex, row));
                SmallVector<Value> position(batch);
                position.append({source, col});
                return tensor::ExtractOp::create(nb, l, old, position);
              };
              Value here = swapped(r, c);
              Value pivotValue = swapped(jIndex, jIndex);
              Value zero = floatConstant(nb, l, element, 0.0);
              Value singular = arith::CmpFOp::create(
                  nb, l, arith::CmpFPredicate::OEQ, pivotValue, zero);
              Value factor =
                  arith::DivFOp::create(nb, l, swapped(r, jIndex), pivotValue);
              factor = arith::SelectOp::create(nb, l, singular, zero, factor);
              Value eliminated = arith::SubFOp::create(
                  nb, l, here,
                  arith::MulFOp::create(nb, l, factor, swapped(jIndex, c)));
              Value below = arith::CmpIOp::create(
                  nb, l, arith::CmpIPredicate::ugt, r, jIndex);
              linalg::YieldOp::create(
                  nb, l,
                  arith::SelectOp::create(nb, l, below, eliminated, here)
                      .getResult());
            })
            .getResult(0);

    // A swap flips the sign.
    sign = buildElementwise(
        b, loc, batchType, ValueRange{sign, pivot},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value swappedRows = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::ne, args[1], index(nb, l, j));
          return arith::SelectOp::create(nb, l, swappedRows,
                                         arith::NegFOp::create(nb, l, args[0]),
                                         args[0]);
        });
  }

  // sign * the product of the diagonal: over (batch..., k).
  SmallVector<AffineExpr> diagonal = batchExprs();
  diagonal.append({dim(batchRank), dim(batchRank)});
  SmallVector<utils::IteratorType> iterators = getParallelIterators(batchRank);
  iterators.push_back(utils::IteratorType::reduction);
  Value det =
      linalg::GenericOp::create(
          b, loc, TypeRange{batchType}, ValueRange{matrix}, ValueRange{sign},
          ArrayRef<AffineMap>{
              AffineMap::get(batchRank + 1, 0, diagonal, context),
              AffineMap::get(batchRank + 1, 0, batchExprs(), context)},
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nb, l,
                arith::MulFOp::create(nb, l, args[1], args[0]).getResult());
          })
          .getResult(0);
  results.push_back(det);
  return success();
}

void onnx_plugin::addDetConverters(ConverterTable &table) {
  table["Det"] = {convertDet};
}
