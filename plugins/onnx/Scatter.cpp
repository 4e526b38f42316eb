//===- Scatter.cpp - ScatterElements and ScatterND ------------------------===//
//
// A scatter as a gather of matches: a linalg.generic over the data's
// elements (parallel) and the updates' indices (a reduction) that, for
// every update whose index names the element, replaces it (the last such
// update wins, as ONNX's reference does) or combines it in (add, mul,
// max, min). The work is the data's size times the number of updates per
// element: fine for the small scatters models hold, and it keeps the
// scatter one parallel, tileable op.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
enum class Reduction { None, Add, Mul, Max, Min };
} // namespace

static FailureOr<Reduction> readReduction(NodeConverter &node) {
  FailureOr<std::string> name = node.getString("reduction", "none");
  if (failed(name))
    return failure();
  std::optional<Reduction> reduction =
      llvm::StringSwitch<std::optional<Reduction>>(*name)
          .Case("none", Reduction::None)
          .Case("add", Reduction::Add)
          .Case("mul", Reduction::Mul)
          .Case("max", Reduction::Max)
          .Case("min", Reduction::Min)
          .Default(std::nullopt);
  if (!reduction)
    return node.error() << "reduction '" << *name << "' is not one of none, "
                        << "add, mul, max, min",
           failure();
  return *reduction;
}

/// `accumulator` with `update` folded in by `reduction` where `match`.
static Value combine(OpBuilder &b, Location loc, Reduction reduction,
                     Value match, Value update, Value accumulator,
                     bool isUnsigned) {
  bool isFloat = isa<FloatType>(update.getType());
  // The float op, the signed and the unsigned integer op of a reduction.
  auto apply = [&](auto floatOp, auto signedOp, auto unsignedOp) -> Value {
    using FloatOp = decltype(floatOp);
    using SignedOp = decltype(signedOp);
    using UnsignedOp = decltype(unsignedOp);
    if (isFloat)
      return FloatOp::create(b, loc, accumulator, update);
    if (isUnsigned)
      return UnsignedOp::create(b, loc, accumulator, update);
    return SignedOp::create(b, loc, accumulator, update);
  };
  Value combined = update;
  switch (reduction) {
  case Reduction::None:
    break;
  case Reduction::Add:
    combined = apply(arith::AddFOp(), arith::AddIOp(), arith::AddIOp());
    break;
  case Reduction::Mul:
    combined = apply(arith::MulFOp(), arith::MulIOp(), arith::MulIOp());
    break;
  case Reduction::Max:
    combined = apply(arith::MaximumFOp(), arith::MaxSIOp(), arith::MaxUIOp());
    break;
  case Reduction::Min:
    combined = apply(arith::MinimumFOp(), arith::MinSIOp(), arith::MinUIOp());
    break;
  }
  return arith::SelectOp::create(b, loc, match, combined, accumulator);
}

/// `value` padded at the end of each dim to the sizes of `like`'s dims,
/// except dim `keep`, with `padding`.
static Value padTo(OpBuilder &b, Location loc, Value value, Value like,
                   int64_t keep, TypedAttr padding) {
  auto type = cast<RankedTensorType>(value.getType());
  auto likeType = cast<RankedTensorType>(like.getType());
  SmallVector<OpFoldResult> low, high;
  SmallVector<int64_t> shape;
  bool any = false;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    low.push_back(b.getIndexAttr(0));
    int64_t size = type.getDimSize(d), target = likeType.getDimSize(d);
    if (d == keep || (size == target && !ShapedType::isDynamic(size))) {
      high.push_back(b.getIndexAttr(0));
      shape.push_back(size);
      continue;
    }
    any = true;
    shape.push_back(target);
    if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(target))
      high.push_back(b.getIndexAttr(target - size));
    else
      high.push_back(arith::SubIOp::create(b, loc, getDimSize(b, loc, like, d),
                                           getDimSize(b, loc, value, d))
                         .getResult());
  }
  if (!any)
    return value;
  Value padValue = arith::ConstantOp::create(b, loc, padding);
  return tensor::PadOp::create(b, loc, type.clone(shape), value, low, high,
                               padValue)
      .getResult();
}

/// A copy of `data` to scatter into (the generic's init).
static Value copyOf(OpBuilder &b, Location loc, Value data) {
  auto type = cast<RankedTensorType>(data.getType());
  Value init = createEmptyOfDims(b, loc, type, data);
  return buildCopy(b, loc, type, data, init,
                   b.getMultiDimIdentityMap(type.getRank()));
}

static LogicalResult convertScatterElements(NodeConverter &node,
                                            SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis", "reduction"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedInputType(0);
  FailureOr<RankedTensorType> indicesType = node.getRankedInputType(1);
  FailureOr<RankedTensorType> updatesType = node.getRankedInputType(2);
  FailureOr<Reduction> reduction = readReduction(node);
  if (failed(type) || failed(indicesType) || failed(updatesType) ||
      failed(reduction))
    return failure();
  int64_t rank = type->getRank();
  FailureOr<int64_t> axis = node.getAxis("axis", 0, rank);
  if (failed(axis))
    return failure();
  if (indicesType->getRank() != rank ||
      updatesType->getShape() != indicesType->getShape())
    return node.error() << "its indices and updates must have one shape and "
                           "the data's rank",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  if (failed(node.checkIndices(node.input(1),
                               getDimSize(b, loc, node.input(0), *axis),
                               "axis " + Twine(*axis) + " of the data")))
    return failure();
  Type indexElement = indicesType->getElementType();
  // Past the indices' extent an element takes no update: its padded index
  // is the most negative integer, which no position matches.
  Value indices =
      padTo(b, loc, node.input(1), node.input(0), *axis,
            b.getIntegerAttr(indexElement,
                             APInt::getSignedMinValue(
                                 indexElement.getIntOrFloatBitWidth())));
  Value updates = padTo(b, loc, node.input(2), node.input(0), *axis,
                        b.getZeroAttr(type->getElementType()));
  // Loops: the data's dims, then the updates along the axis.
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> readExprs;
  for (int64_t d = 0; d < rank; ++d)
    readExprs.push_back(getAffineDimExpr(d == *axis ? rank : d, context));
  AffineMap readMap = AffineMap::get(rank + 1, 0, readExprs, context);
  AffineMap outMap =
      AffineMap::getMultiDimIdentityMap(rank + 1, context).getMajorSubMap(rank);
  SmallVector<utils::IteratorType> iterators = getParallelIterators(rank);
  iterators.push_back(utils::IteratorType::reduction);
  Value axisSize = getDimSize(b, loc, node.input(0), *axis);
  bool isUnsigned = node.isUnsignedInput(0);
  Reduction kind = *reduction;
  int64_t axisDim = *axis;
  results.push_back(
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, ValueRange{indices, updates},
          copyOf(b, loc, node.input(0)),
          ArrayRef<AffineMap>{readMap, readMap, outMap}, iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value index = wrapIndex(nb, l, args[0], axisSize);
            Value position = linalg::IndexOp::create(nb, l, axisDim);
            Value match = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                                index, position);
            linalg::YieldOp::create(
                nb, l,
                combine(nb, l, kind, match, args[1], args[2], isUnsigned));
          })
          .getResult(0));
  return success();
}

static LogicalResult convertScatterND(NodeConverter &node,
                                      SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"reduction"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedInputType(0);
  FailureOr<RankedTensorType> indicesType = node.getRankedInputType(1);
  FailureOr<RankedTensorType> updatesType = node.getRankedInputType(2);
  FailureOr<Reduction> reduction = readReduction(node);
  if (failed(type) || failed(indicesType) || failed(updatesType) ||
      failed(reduction))
    return failure();
  int64_t rank = type->getRank();
  int64_t indicesRank = indicesType->getRank();
  if (indicesRank < 1)
    return node.error() << "its indices must have rank 1 or more", failure();
  int64_t depth = indicesType->getDimSize(indicesRank - 1);
  if (ShapedType::isDynamic(depth) || depth > rank)
    return node.error() << "the last dim of its indices must be static and "
                           "at most the data's rank "
                        << rank,
           failure();
  int64_t batch = indicesRank - 1;
  if (updatesType->getRank() != batch + rank - depth)
    return node.error() << "its updates must have rank "
                        << batch + rank - depth,
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  // Each component of the indices as a tensor of the batch dims.
  SmallVector<Value> operands;
  auto componentType = RankedTensorType::get(
      indicesType->getShape().drop_back(), indicesType->getElementType());
  for (int64_t j = 0; j < depth; ++j) {
    SmallVector<OpFoldResult> offsets(indicesRank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(indicesRank, b.getIndexAttr(1));
    for (int64_t d = 0; d < batch; ++d) {
      if (indicesType->isDynamicDim(d))
        sizes.push_back(getDimSize(b, loc, node.input(1), d));
      else
        sizes.push_back(b.getIndexAttr(indicesType->getDimSize(d)));
    }
    offsets.back() = b.getIndexAttr(j);
    sizes.push_back(b.getIndexAttr(1));
    operands.push_back(tensor::ExtractSliceOp::create(
        b, loc, componentType, node.input(1), offsets, sizes, strides));
  }
  operands.push_back(node.input(2));
  // Loops: the data's dims (parallel), then the batch dims (a reduction).
  MLIRContext *context = b.getContext();
  int64_t loops = rank + batch;
  SmallVector<AffineExpr> batchExprs, updateExprs, outExprs;
  for (int64_t d = 0; d < batch; ++d)
    batchExprs.push_back(getAffineDimExpr(rank + d, context));
  updateExprs = batchExprs;
  for (int64_t d = depth; d < rank; ++d)
    updateExprs.push_back(getAffineDimExpr(d, context));
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(getAffineDimExpr(d, context));
  SmallVector<AffineMap> maps(depth,
                              AffineMap::get(loops, 0, batchExprs, context));
  maps.push_back(AffineMap::get(loops, 0, updateExprs, context));
  maps.push_back(AffineMap::get(loops, 0, outExprs, context));
  SmallVector<utils::IteratorType> iterators = getParallelIterators(rank);
  iterators.append(batch, utils::IteratorType::reduction);
  SmallVector<Value> sizes;
  for (int64_t j = 0; j < depth; ++j)
    sizes.push_back(getDimSize(b, loc, node.input(0), j));
  if (failed(checkIndexColumns(node, node.input(1), sizes, 0)))
    return failure();
  bool isUnsigned = node.isUnsignedInput(0);
  Reduction kind = *reduction;
  results.push_back(
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, operands, copyOf(b, loc, node.input(0)),
          maps, iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value match = arith::ConstantIntOp::create(nb, l, 1, 1);
            for (int64_t j = 0; j < depth; ++j) {
              Value index = wrapIndex(nb, l, args[j], sizes[j]);
              Value position = linalg::IndexOp::create(nb, l, j);
              Value equal = arith::CmpIOp::create(
                  nb, l, arith::CmpIPredicate::eq, index, position);
              match = arith::AndIOp::create(nb, l, match, equal);
            }
            linalg::YieldOp::create(nb, l,
                                    combine(nb, l, kind, match, args[depth],
                                            args[depth + 1], isUnsigned));
          })
          .getResult(0));
  return success();
}

void onnx_plugin::addScatterConverters(ConverterTable &table) {
  table["ScatterElements"] = {convertScatterElements};
  table["ScatterND"] = {convertScatterND};
}
