//===- Pooling.cpp - ONNX's pools -----------------------------------------===//
//
// MaxPool and AveragePool as linalg's NCHW pools in 2-D (made channels-last
// by global optimization), 1-D as 2-D of height 1, other ranks as a
// linalg.generic over the window; padding of -inf (max) or zeros, ceil_mode
// as end padding. AveragePool divides the sum by the count of elements
// each window covers. MaxPool's Indices come from a generic carrying each
// window's max and its offset. Global pools are reductions.
//
//===----------------------------------------------------------------------===//

#include "Window.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A max or sum pool of `padded` (N, C, spatial...) into `type` by
/// `window` (its pads already applied): linalg's NCHW pools in 2-D, which
/// global optimization makes channels-last; a linalg.generic with the
/// window's dims as reductions otherwise.
static Value pool(OpBuilder &b, Location loc, Value padded,
                  RankedTensorType type, ArrayRef<OpFoldResult> sizes,
                  const Window &window, bool isMax, bool isUnsigned = false) {
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  TypedAttr init = isMax ? getExtremeAttr(b, element, true, isUnsigned)
                         : b.getZeroAttr(element);
  Value output = createFilled(b, loc, type, init, sizes);
  int64_t spatial = window.kernel.size();
  if (spatial == 2 && isFloat) {
    Value kernel = tensor::EmptyOp::create(b, loc, window.kernel, element);
    auto strides = b.getI64TensorAttr(window.strides);
    auto dilations = b.getI64TensorAttr(window.dilations);
    if (isMax)
      return linalg::PoolingNchwMaxOp::create(b, loc, type,
                                              ValueRange{padded, kernel},
                                              output, strides, dilations)
          .getResult(0);
    return linalg::PoolingNchwSumOp::create(b, loc, type,
                                            ValueRange{padded, kernel}, output,
                                            strides, dilations)
        .getResult(0);
  }
  // Loops (n, c, out..., window...): reads (n, c, out * stride + window *
  // dilation).
  int64_t loops = 2 + 2 * spatial;
  SmallVector<AffineExpr> inputExprs = {b.getAffineDimExpr(0),
                                        b.getAffineDimExpr(1)};
  SmallVector<AffineExpr> outputExprs(inputExprs);
  SmallVector<utils::IteratorType> iterators(2 + spatial,
                                             utils::IteratorType::parallel);
  for (int64_t d = 0; d < spatial; ++d) {
    AffineExpr out = b.getAffineDimExpr(2 + d);
    AffineExpr at = b.getAffineDimExpr(2 + spatial + d);
    inputExprs.push_back(out * window.strides[d] + at * window.dilations[d]);
    outputExprs.push_back(out);
    iterators.push_back(utils::IteratorType::reduction);
  }
  // The window's extent comes from a shape-only operand.
  SmallVector<AffineExpr> windowExprs;
  for (int64_t d = 0; d < spatial; ++d)
    windowExprs.push_back(b.getAffineDimExpr(2 + spatial + d));
  Value kernel = tensor::EmptyOp::create(b, loc, window.kernel, element);
  MLIRContext *context = b.getContext();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{padded, kernel},
             ValueRange{output},
             ArrayRef<AffineMap>{
                 AffineMap::get(loops, 0, inputExprs, context),
                 AffineMap::get(loops, 0, windowExprs, context),
                 AffineMap::get(loops, 0, outputExprs, context)},
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value x = args[0], acc = args[2], combined;
               if (!isMax)
                 combined =
                     isFloat ? arith::AddFOp::create(nb, l, x, acc).getResult()
                             : arith::AddIOp::create(nb, l, x, acc).getResult();
               else if (isFloat)
                 combined = arith::MaximumFOp::create(nb, l, x, acc);
               else if (isUnsigned)
                 combined = arith::MaxUIOp::create(nb, l, x, acc);
               else
                 combined = arith::MaxSIOp::create(nb, l, x, acc);
               linalg::YieldOp::create(nb, l, combined);
             })
      .getResult(0);
}

/// MaxPool with its Indices output: the max of each window of `padded`
/// and where it is in the unpadded `input` (the first of equal maxima),
/// as the offset of a row-major tensor (its spatial dims column-major with
/// `columnMajor`); the results have `sizes`.
static std::pair<Value, Value>
poolWithIndices(OpBuilder &b, Location loc, Value padded, Value input,
                RankedTensorType type, RankedTensorType indexType,
                ArrayRef<OpFoldResult> sizes, const Window &window,
                bool isUnsigned, bool columnMajor) {
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  Value output = createFilled(
      b, loc, type, getExtremeAttr(b, element, true, isUnsigned), sizes);
  Value indices = createFilled(
      b, loc, indexType, b.getZeroAttr(indexType.getElementType()), sizes);
  // The input's sizes and the pads before, as index values the body reads.
  SizeMath math(b, loc);
  SmallVector<Value> inputSizes, padBegin;
  for (int64_t d = 0; d < cast<RankedTensorType>(input.getType()).getRank();
       ++d)
    inputSizes.push_back(math.value(math.dim(input, d)));
  for (OpFoldResult pad : window.padBegin)
    padBegin.push_back(math.value(pad));
  int64_t spatial = window.kernel.size();
  int64_t loops = 2 + 2 * spatial;
  SmallVector<AffineExpr> inputExprs = {b.getAffineDimExpr(0),
                                        b.getAffineDimExpr(1)};
  SmallVector<AffineExpr> outputExprs(inputExprs), windowExprs;
  SmallVector<utils::IteratorType> iterators =
      getParallelIterators(2 + spatial);
  for (int64_t d = 0; d < spatial; ++d) {
    AffineExpr out = b.getAffineDimExpr(2 + d);
    AffineExpr at = b.getAffineDimExpr(2 + spatial + d);
    inputExprs.push_back(out * window.strides[d] + at * window.dilations[d]);
    outputExprs.push_back(out);
    windowExprs.push_back(at);
    iterators.push_back(utils::IteratorType::reduction);
  }
  Value kernel = tensor::EmptyOp::create(b, loc, window.kernel, element);
  MLIRContext *context = b.getContext();
  AffineMap outMap = AffineMap::get(loops, 0, outputExprs, context);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{type, indexType}, ValueRange{padded, kernel},
      ValueRange{output, indices},
      ArrayRef<AffineMap>{AffineMap::get(loops, 0, inputExprs, context),
                          AffineMap::get(loops, 0, windowExprs, context),
                          outMap, outMap},
      iterators, [&](OpBuilder &nb, Location l, ValueRange args) {
        // The offset of (n, c, out * stride + at * dilation - pad...), the
        // spatial dims in reverse when column-major.
        Value offset = linalg::IndexOp::create(nb, l, 0);
        for (int64_t e = 1; e < 2 + spatial; ++e) {
          int64_t d = e >= 2 && columnMajor ? 2 + spatial - 1 - (e - 2) : e;
          Value position = linalg::IndexOp::create(nb, l, d);
          if (d >= 2) {
            int64_t s = d - 2;
            Value at = linalg::IndexOp::create(nb, l, 2 + spatial + s);
            position = arith::AddIOp::create(
                nb, l,
                arith::MulIOp::create(
                    nb, l, position,
                    arith::ConstantIndexOp::create(nb, l, window.strides[s])),
                arith::MulIOp::create(nb, l, at,
                                      arith::ConstantIndexOp::create(
                                          nb, l, window.dilations[s])));
            position = arith::SubIOp::create(nb, l, position, padBegin[s]);
          }
          offset = arith::AddIOp::create(
              nb, l, arith::MulIOp::create(nb, l, offset, inputSizes[d]),
              position);
        }
        Value x = args[0], acc = args[2];
        Value greater =
            isFloat
                ? arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, x,
                                        acc)
                      .getResult()
                : arith::CmpIOp::create(nb, l,
                                        isUnsigned ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt,
                                        x, acc)
                      .getResult();
        Value index = arith::IndexCastOp::create(
            nb, l, indexType.getElementType(), offset);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{
                arith::SelectOp::create(nb, l, greater, x, acc),
                arith::SelectOp::create(nb, l, greater, index, args[3])});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

static LogicalResult convertPool(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  bool isMax = node.node.getOpType() == "MaxPool";
  if (failed(node.checkAttributes({"auto_pad", "ceil_mode", "count_include_pad",
                                   "dilations", "kernel_shape", "pads",
                                   "storage_order", "strides"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<int64_t> includePad = node.getInt("count_include_pad", 0);
  if (failed(type) || failed(inputType) || failed(includePad))
    return failure();
  bool wantIndices =
      node.getNumResults() > 1 && !node.node.getResult(1).use_empty();
  FailureOr<int64_t> storageOrder = node.getInt("storage_order", 0);
  if (failed(storageOrder))
    return failure();
  if (*storageOrder != 0 && *storageOrder != 1)
    return node.error() << "storage_order must be 0 or 1", failure();
  int64_t rank = inputType->getRank();
  if (rank < 3)
    return node.error() << "the input has rank " << rank << "; it needs 3+",
           failure();
  Type element = type->getElementType();
  bool isUnsigned = node.isUnsignedInput(0);
  if (!isMax && !isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  FailureOr<Window> read =
      readWindow(node, node.input(0), type->getShape().drop_front(2), {});
  if (failed(read))
    return failure();
  Window window = *read;
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  RankedTensorType resultType = *type;
  if (rank == 3) {
    input = addUnitHeight(b, loc, input);
    resultType = addUnitHeight(*type);
    window.addUnitHeight(b);
  }
  SizeMath math(b, loc);
  SmallVector<OpFoldResult> sizes =
      getWindowResultSizes(b, loc, input, math.dim(input, 1), window);
  Value result, indices;
  if (isMax) {
    TypedAttr lowest = getExtremeAttr(b, element, true, isUnsigned);
    Value padded = padSpatial(b, loc, input, window, lowest);
    if (wantIndices) {
      FailureOr<RankedTensorType> indexType = node.getRankedResultType(1);
      if (failed(indexType))
        return failure();
      RankedTensorType paddedIndexType =
          rank == 3 ? addUnitHeight(*indexType) : *indexType;
      std::tie(result, indices) =
          poolWithIndices(b, loc, padded, input, resultType, paddedIndexType,
                          sizes, window, isUnsigned, *storageOrder == 1);
      if (rank == 3)
        indices = reshapeTo(b, loc, indices, *indexType);
    } else {
      result = pool(b, loc, padded, resultType, sizes, window, /*isMax=*/true,
                    isUnsigned);
    }
  } else {
    Value padded = padSpatial(b, loc, input, window, b.getZeroAttr(element));
    Value sum =
        pool(b, loc, padded, resultType, sizes, window, /*isMax=*/false);
    // What each window counts: a sum pool of ones over the input (and the
    // explicit pads with count_include_pad), a constant when the sizes are.
    auto inType = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> onesShape(inType.getShape());
    onesShape[0] = onesShape[1] = 1;
    SmallVector<OpFoldResult> onesSizes = {math.constant(1), math.constant(1)};
    for (int64_t d = 2; d < inType.getRank(); ++d)
      onesSizes.push_back(math.dim(input, d));
    auto onesType = RankedTensorType::get(onesShape, element);
    Value ones =
        createFilled(b, loc, onesType, b.getOneAttr(element), onesSizes);
    if (*includePad) {
      ones = padSpatial(b, loc, ones, window.padBegin, window.explicitPadEnd,
                        b.getOneAttr(element));
      SmallVector<OpFoldResult> none, rest;
      for (auto [end, explicitEnd] :
           llvm::zip(window.padEnd, window.explicitPadEnd)) {
        none.push_back(math.constant(0));
        rest.push_back(math.sub(end, explicitEnd));
      }
      ones = padSpatial(b, loc, ones, none, rest, b.getZeroAttr(element));
    } else {
      ones = padSpatial(b, loc, ones, window, b.getZeroAttr(element));
    }
    SmallVector<int64_t> countShape(resultType.getShape());
    countShape[0] = countShape[1] = 1;
    SmallVector<OpFoldResult> countSizes(sizes);
    countSizes[0] = countSizes[1] = math.constant(1);
    Value counts =
        pool(b, loc, ones, RankedTensorType::get(countShape, element),
             countSizes, window, /*isMax=*/false);
    result = buildElementwise(
        b, loc, resultType, ValueRange{sum, counts},
        [](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], args[1]);
        });
  }
  if (rank == 3)
    result = reshapeTo(b, loc, result, *type);
  results.push_back(result);
  if (node.getNumResults() > 1)
    results.push_back(indices);
  return success();
}

static LogicalResult convertGlobalPool(NodeConverter &node,
                                       SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  bool isMax = node.node.getOpType() == "GlobalMaxPool";
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  Type element = type->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "it needs a float input", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  SmallVector<int64_t> spatial;
  for (int64_t d = 2; d < inputType->getRank(); ++d)
    spatial.push_back(d);
  Value reduced = reduce(
      b, loc, input, spatial,
      isMax ? getExtremeAttr(b, element, true, false) : b.getZeroAttr(element),
      [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
        return isMax ? arith::MaximumFOp::create(nb, l, x, acc).getResult()
                     : arith::AddFOp::create(nb, l, x, acc).getResult();
      });
  if (!isMax) {
    Value count = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d : spatial)
      count =
          arith::MulIOp::create(b, loc, count, getDimSize(b, loc, input, d));
    Value countValue = castScalar(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI64Type(), count),
        element, true, false);
    reduced = buildElementwise(
        b, loc, cast<RankedTensorType>(reduced.getType()), reduced,
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], countValue);
        });
  }
  results.push_back(reshapeTo(b, loc, reduced, *type));
  return success();
}

void onnx_plugin::addPoolingConverters(ConverterTable &table) {
  table["MaxPool"] = {convertPool};
  table["AveragePool"] = {convertPool};
  table["GlobalAveragePool"] = {convertGlobalPool};
  table["GlobalMaxPool"] = {convertGlobalPool};
}
