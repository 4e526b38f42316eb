//===- Indexing.cpp - ONNX's ops that pick and place elements -------------===//
//
// Gather, GatherElements, GatherND and Pad's edge and reflect modes (and pads
// known at run time) as linalg.generic ops that compute where to read; Pad's
// constant mode as tensor.pad; Trilu, Range and ReverseSequence.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

//===----------------------------------------------------------------------===//
// Gather, GatherElements
//===----------------------------------------------------------------------===//

static LogicalResult convertGather(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis"})))
    return failure();
  StringRef op = node.node.getOpType();
  bool elements = op == "GatherElements";
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> dataType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> indicesType = node.getRankedInputType(1);
  if (failed(type) || failed(dataType) || failed(indicesType))
    return failure();
  int64_t rank = dataType->getRank(), indicesRank = indicesType->getRank();
  FailureOr<int64_t> axis = node.getAxis("axis", 0, rank);
  if (failed(axis))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value data = node.input(0), indices = node.input(1);
  int64_t resultRank = type->getRank();
  // Gather: the result is data's dims before the axis, the indices' dims,
  // data's dims after it. GatherElements: the indices' shape.
  AffineMap indicesMap = b.getMultiDimIdentityMap(resultRank);
  if (!elements) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < indicesRank; ++d)
      exprs.push_back(b.getAffineDimExpr(*axis + d));
    indicesMap = AffineMap::get(resultRank, 0, exprs, b.getContext());
  }
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < resultRank; ++d) {
    if (!type->isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(type->getDimSize(d)));
      continue;
    }
    if (elements)
      sizes.push_back(getDimSize(b, loc, indices, d));
    else if (d < *axis)
      sizes.push_back(getDimSize(b, loc, data, d));
    else if (d < *axis + indicesRank)
      sizes.push_back(getDimSize(b, loc, indices, d - *axis));
    else
      sizes.push_back(getDimSize(b, loc, data, d - indicesRank + 1));
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, type->getElementType());
  Value axisSize = getDimSize(b, loc, data, *axis);
  if (failed(node.checkIndices(indices, axisSize,
                               "axis " + Twine(*axis) + " of the data")))
    return failure();
  // GatherElements reads the other dims where the indices are.
  for (int64_t d = 0; elements && d < rank; ++d) {
    if (d == *axis ||
        (!dataType->isDynamicDim(d) && !indicesType->isDynamicDim(d)))
      continue;
    Value have = getDimSize(b, loc, data, d);
    Value want = getDimSize(b, loc, indices, d);
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, want, have),
        "dimension " + Twine(d) +
            " of its indices is {0}, larger than the data's, {1}",
        {want, have});
  }
  int64_t axisValue = *axis;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{indices}, ValueRange{init},
      ArrayRef<AffineMap>{indicesMap, b.getMultiDimIdentityMap(resultRank)},
      getParallelIterators(resultRank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value index = wrapAndClampIndex(nb, l, args[0], axisSize);
        SmallVector<Value> position;
        for (int64_t d = 0; d < rank; ++d) {
          if (d == axisValue)
            position.push_back(index);
          else if (elements || d < axisValue)
            position.push_back(linalg::IndexOp::create(nb, l, d));
          else
            position.push_back(
                linalg::IndexOp::create(nb, l, d + indicesRank - 1));
        }
        Value element = createCheckedExtract(nb, l, data, position);
        linalg::YieldOp::create(nb, l, element);
      });
  results.push_back(generic.getResult(0));
  return success();
}

/// Checks each column k of `indices` (its last dim) against `dims[k]`,
/// dimension `first + k` of the data: GatherND's and ScatterND's indices.
LogicalResult onnx_plugin::checkIndexColumns(NodeConverter &node, Value indices,
                                             ArrayRef<Value> dims,
                                             int64_t first) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  for (auto [k, dim] : llvm::enumerate(dims)) {
    std::string what = "dimension " + std::to_string(first + k) +
                       " of the data (column " + std::to_string(k) +
                       " of the indices)";
    // Constant indices: each column's values, at compile time.
    std::optional<int64_t> size = getConstantIntValue(dim);
    if (std::optional<SmallVector<int64_t>> values = matchConstantInts(indices);
        values && size) {
      int64_t columns = static_cast<int64_t>(dims.size());
      for (size_t i = k; i < values->size(); i += columns)
        if ((*values)[i] < -*size || (*values)[i] >= *size)
          return node.error() << "index " << (*values)[i]
                              << " is out of range for " << what << ", of size "
                              << *size << " (indices must be in [" << -*size
                              << ", " << *size << "))",
                 failure();
      continue;
    }
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
    for (int64_t d = 0; d < rank - 1; ++d)
      sizes.push_back(type.isDynamicDim(d)
                          ? OpFoldResult(getDimSize(b, loc, indices, d))
                          : b.getIndexAttr(type.getDimSize(d)));
    offsets.back() = b.getIndexAttr(k);
    sizes.push_back(b.getIndexAttr(1));
    Value column = tensor::ExtractSliceOp::create(b, loc, indices, offsets,
                                                  sizes, strides);
    if (failed(node.checkIndices(column, dim, what)))
      return failure();
  }
  return success();
}

/// GatherND: each row of the indices' last dim picks a slice of data
/// (after batch_dims leading dims shared with the indices).
static LogicalResult convertGatherND(NodeConverter &node,
                                     SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"batch_dims"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> dataType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> indicesType = node.getRankedInputType(1);
  FailureOr<int64_t> batchDims = node.getInt("batch_dims", 0);
  if (failed(type) || failed(dataType) || failed(indicesType) ||
      failed(batchDims))
    return failure();
  int64_t q = indicesType->getRank(), batch = *batchDims;
  int64_t m = q ? indicesType->getDimSize(q - 1) : ShapedType::kDynamic;
  if (ShapedType::isDynamic(m) || batch < 0 ||
      batch + m > dataType->getRank() || batch >= q)
    return node.error() << "the indices' last dim must be static and fit the "
                           "data after batch_dims",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value data = node.input(0), indices = node.input(1);
  int64_t rank = type->getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!type->isDynamicDim(d))
      sizes.push_back(b.getIndexAttr(type->getDimSize(d)));
    else if (d < q - 1)
      sizes.push_back(getDimSize(b, loc, indices, d));
    else
      sizes.push_back(getDimSize(b, loc, data, d - (q - 1) + batch + m));
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, type->getElementType());
  SmallVector<Value> dims;
  for (int64_t d = 0; d < m; ++d)
    dims.push_back(getDimSize(b, loc, data, batch + d));
  // The batch dims are shared: the data's must be the indices'.
  for (int64_t d = 0; d < batch; ++d) {
    if (!dataType->isDynamicDim(d) && !indicesType->isDynamicDim(d))
      continue;
    Value have = getDimSize(b, loc, data, d);
    Value want = getDimSize(b, loc, indices, d);
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, want, have),
        "batch dimension " + Twine(d) +
            " of its indices is {0}, but the data's is {1}",
        {want, have});
  }
  if (failed(checkIndexColumns(node, indices, dims, batch)))
    return failure();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
      getParallelIterators(rank), [&](OpBuilder &nb, Location l, ValueRange) {
        SmallVector<Value> outer, position;
        for (int64_t d = 0; d < q - 1; ++d)
          outer.push_back(linalg::IndexOp::create(nb, l, d));
        for (int64_t d = 0; d < batch; ++d)
          position.push_back(outer[d]);
        for (int64_t k = 0; k < m; ++k) {
          SmallVector<Value> at(outer);
          at.push_back(arith::ConstantIndexOp::create(nb, l, k));
          Value index = tensor::ExtractOp::create(nb, l, indices, at);
          position.push_back(wrapAndClampIndex(nb, l, index, dims[k]));
        }
        for (int64_t d = q - 1; d < rank; ++d)
          position.push_back(linalg::IndexOp::create(nb, l, d));
        Value element = createCheckedExtract(nb, l, data, position);
        linalg::YieldOp::create(nb, l, element);
      });
  results.push_back(generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Pad, Trilu, Range
//===----------------------------------------------------------------------===//

static LogicalResult convertPad(NodeConverter &node,
                                SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"mode"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<std::string> mode = node.getString("mode", "constant");
  if (failed(type) || failed(inputType) || failed(mode))
    return failure();
  if (*mode != "constant" && *mode != "edge" && *mode != "reflect")
    return node.error() << "mode '" << *mode << "' is not supported", failure();
  int64_t rank = inputType->getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < rank; ++d)
    axes.push_back(d);
  if (node.hasInput(3)) {
    FailureOr<SmallVector<int64_t>> given = node.getConstantInts(3, "axes");
    if (failed(given))
      return failure();
    axes.clear();
    for (int64_t axis : *given) {
      FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank, "axis");
      if (failed(normalized))
        return failure();
      axes.push_back(*normalized);
    }
  }
  int64_t padCount =
      cast<RankedTensorType>(node.input(1).getType()).getDimSize(0);
  if (!ShapedType::isDynamic(padCount) &&
      padCount != static_cast<int64_t>(2 * axes.size()))
    return node.error() << "input 1 (pads) has " << padCount << " values for "
                        << axes.size() << " axes",
           failure();

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Type element = type->getElementType();
  // The value: input 2 (a scalar, or one element), else zero.
  Value fill = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  if (node.hasInput(2)) {
    Value value = node.input(2);
    SmallVector<Value> position;
    if (cast<RankedTensorType>(value.getType()).getRank() == 1)
      position.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    fill = tensor::ExtractOp::create(b, loc, value, position);
  }
  // Pads known at compile time where they are constant; negative ones
  // crop, which the general path below handles.
  std::optional<SmallVector<int64_t>> pads = matchConstantInts(node.input(1));
  SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
      high(rank, b.getIndexAttr(0));
  for (auto [i, axis] : llvm::enumerate(axes)) {
    for (auto [side, at] : {std::pair{&low, i}, {&high, i + axes.size()}}) {
      if (pads) {
        (*side)[axis] = b.getIndexAttr((*pads)[at]);
        continue;
      }
      Value position = arith::ConstantIndexOp::create(b, loc, at);
      Value value = tensor::ExtractOp::create(b, loc, node.input(1), position);
      (*side)[axis] =
          arith::IndexCastOp::create(b, loc, b.getIndexType(), value)
              .getResult();
    }
  }
  bool nonNegative =
      pads && llvm::all_of(*pads, [](int64_t p) { return p >= 0; });
  if (*mode == "constant" && nonNegative) {
    results.push_back(
        tensor::PadOp::create(b, loc, *type, input, low, high, fill));
    return success();
  }

  // Each element read from where its mode says, computed per element.
  SmallVector<Value> dims, lows;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    dims.push_back(getDimSize(b, loc, input, d));
    lows.push_back(getValueOrCreateConstantIndexOp(b, loc, low[d]));
    if (!type->isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(type->getDimSize(d)));
      continue;
    }
    Value size = arith::AddIOp::create(
        b, loc, dims[d],
        arith::AddIOp::create(
            b, loc, lows[d], getValueOrCreateConstantIndexOp(b, loc, high[d])));
    sizes.push_back(size);
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  StringRef padMode = *mode;
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
      getParallelIterators(rank), [&](OpBuilder &nb, Location l, ValueRange) {
        SmallVector<Value> position;
        Value zero = arith::ConstantIndexOp::create(nb, l, 0);
        Value one = arith::ConstantIndexOp::create(nb, l, 1);
        Value inside = arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
        for (int64_t d = 0; d < rank; ++d) {
          // i = out - low, brought back into [0, dim).
          Value index = linalg::IndexOp::create(nb, l, d);
          Value i = arith::SubIOp::create(nb, l, index, lows[d]);
          Value last = arith::SubIOp::create(nb, l, dims[d], one);
          Value below =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, i, zero);
          Value above =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sgt, i, last);
          if (padMode == "constant") {
            Value out = arith::OrIOp::create(nb, l, below, above);
            inside = arith::AndIOp::create(
                nb, l, inside,
                arith::XOrIOp::create(
                    nb, l, out,
                    arith::ConstantOp::create(nb, l, nb.getBoolAttr(true))));
          } else if (padMode == "reflect") {
            // Mirror without repeating the edge: -i below, 2*last - i above.
            i = arith::SelectOp::create(
                nb, l, below, arith::SubIOp::create(nb, l, zero, i), i);
            Value mirrored = arith::SubIOp::create(
                nb, l, arith::AddIOp::create(nb, l, last, last), i);
            i = arith::SelectOp::create(nb, l, above, mirrored, i);
          }
          i = arith::MaxSIOp::create(nb, l, i, zero);
          i = arith::MinSIOp::create(nb, l, i, last);
          position.push_back(i);
        }
        Value element = tensor::ExtractOp::create(nb, l, input, position);
        if (padMode == "constant")
          element = arith::SelectOp::create(nb, l, inside, element, fill);
        linalg::YieldOp::create(nb, l, element);
      });
  results.push_back(generic.getResult(0));
  return success();
}

static LogicalResult convertTrilu(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"upper"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<int64_t> upper = node.getInt("upper", 1);
  if (failed(type) || failed(upper))
    return failure();
  int64_t rank = type->getRank();
  if (rank < 2)
    return node.error() << "the input has rank " << rank << "; Trilu needs 2+",
           failure();
  // k, a 0-d or one-element tensor, read at run time (0 when absent).
  OpBuilder &builder = node.builder;
  Location nodeLoc = node.getLoc();
  Value k = arith::ConstantIndexOp::create(builder, nodeLoc, 0);
  if (node.hasInput(1)) {
    Value given = node.input(1);
    SmallVector<Value> position;
    if (cast<RankedTensorType>(given.getType()).getRank() == 1)
      position.push_back(arith::ConstantIndexOp::create(builder, nodeLoc, 0));
    Value value = tensor::ExtractOp::create(builder, nodeLoc, given, position);
    k = arith::IndexCastOp::create(builder, nodeLoc, builder.getIndexType(),
                                   value);
  }
  Type element = type->getElementType();
  bool keepUpper = *upper;
  results.push_back(buildElementwise(
      node.builder, node.getLoc(), *type, node.input(0),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        // Keep (row, column) when column - row >= k (upper) or <= k.
        Value row = linalg::IndexOp::create(b, loc, rank - 2);
        Value column = linalg::IndexOp::create(b, loc, rank - 1);
        Value diagonal = arith::SubIOp::create(b, loc, column, row);
        Value keep = arith::CmpIOp::create(
            b, loc,
            keepUpper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
            diagonal, k);
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
        return arith::SelectOp::create(b, loc, keep, args[0], zero);
      }));
  return success();
}

static LogicalResult convertRange(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type element = type->getElementType();
  bool isFloat = isa<FloatType>(element);
  auto scalar = [&](unsigned i) {
    return tensor::ExtractOp::create(b, loc, node.input(i), ValueRange{})
        .getResult();
  };
  // Constant bounds: the count they give must be the one the result type
  // has (ONNX 1.12's shape inference computes it in int64 and gave 0 for
  // a range of 10^60 elements) and one a tensor can hold.
  {
    std::optional<double> bounds[3];
    for (unsigned i = 0; i < 3; ++i) {
      if (isFloat) {
        bounds[i] = node.getConstantFloat(i);
      } else if (std::optional<SmallVector<int64_t>> ints =
                     matchConstantInts(node.input(i));
                 ints && ints->size() == 1) {
        bounds[i] = static_cast<double>((*ints)[0]);
      }
    }
    if (bounds[0] && bounds[1] && bounds[2]) {
      auto print = [](double value) {
        char text[32];
        std::snprintf(text, sizeof(text), "%.9g", value);
        return std::string(text);
      };
      std::string range = "its range from " + print(*bounds[0]) + " to " +
                          print(*bounds[1]) + " by " + print(*bounds[2]);
      double count = std::ceil((*bounds[1] - *bounds[0]) / *bounds[2]);
      if (*bounds[2] == 0)
        return node.error() << range << " has a step of 0";
      if (!(count <= 0x1p48))
        return node.error() << range
                            << " holds more than 2^48 elements, or a bound "
                               "is not a number";
      int64_t elements = std::max<int64_t>(static_cast<int64_t>(count), 0);
      if (!type->isDynamicDim(0) && type->getDimSize(0) != elements)
        return node.error() << range << " holds " << elements
                            << " elements, but its result type " << *type
                            << " holds " << type->getDimSize(0);
    }
  }
  Value start = scalar(0), limit = scalar(1), delta = scalar(2);
  SmallVector<OpFoldResult> sizes;
  if (type->isDynamicDim(0)) {
    // max(ceil((limit - start) / delta), 0).
    Value count;
    if (isFloat) {
      Value quotient = arith::DivFOp::create(
          b, loc, arith::SubFOp::create(b, loc, limit, start), delta);
      Value rounded = math::CeilOp::create(b, loc, quotient);
      // A count that is not a number, or one no tensor can hold (2^48
      // elements: 1 PiB of bytes), is an error, not a cast to garbage.
      Value wide = arith::ExtFOp::create(b, loc, b.getF64Type(), rounded);
      Value bounded = arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::OLE, wide,
          arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0x1p48)));
      node.require(bounded,
                   "its range (start, limit and delta, inputs 0 to 2) holds "
                   "more than 2^48 elements, or its delta is 0, or a bound "
                   "is not a number");
      Value safe = arith::SelectOp::create(
          b, loc, bounded, wide,
          arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0)));
      count = arith::FPToSIOp::create(b, loc, b.getI64Type(), safe);
    } else {
      node.require(
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ne, delta,
              arith::ConstantOp::create(b, loc, b.getZeroAttr(element))),
          "a range from {0} to {1} with a step of 0", {start, limit});
      Value difference = arith::SubIOp::create(b, loc, limit, start);
      count = arith::CeilDivSIOp::create(b, loc, difference, delta);
      count = castScalar(b, loc, count, b.getI64Type(), false, false);
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
    count = arith::MaxSIOp::create(b, loc, count, zero);
    sizes.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), count)
                        .getResult());
  } else {
    sizes.push_back(b.getIndexAttr(type->getDimSize(0)));
  }
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{*type}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(1)}, getParallelIterators(1),
      [&](OpBuilder &nb, Location l, ValueRange) {
        Value index = linalg::IndexOp::create(nb, l, 0);
        Value i = arith::IndexCastOp::create(nb, l, nb.getI64Type(), index);
        Value value;
        if (isFloat) {
          Value f = arith::SIToFPOp::create(nb, l, element, i);
          value = arith::AddFOp::create(nb, l, start,
                                        arith::MulFOp::create(nb, l, f, delta));
        } else {
          Value n = castScalar(nb, l, i, element, false, false);
          value = arith::AddIOp::create(nb, l, start,
                                        arith::MulIOp::create(nb, l, n, delta));
        }
        linalg::YieldOp::create(nb, l, value);
      });
  results.push_back(generic.getResult(0));
  return success();
}

/// ReverseSequence: along the time axis, the first sequence_lens[b]
/// elements of each batch entry b reversed, the rest copied.
static LogicalResult convertReverseSequence(NodeConverter &node,
                                            SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"batch_axis", "time_axis"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  int64_t rank = type->getRank();
  if (rank < 2)
    return node.error() << "it needs an input of rank 2 or more", failure();
  FailureOr<int64_t> batchAxis = node.getAxis("batch_axis", 1, rank);
  FailureOr<int64_t> timeAxis = node.getAxis("time_axis", 0, rank);
  if (failed(batchAxis) || failed(timeAxis))
    return failure();
  if (*batchAxis > 1 || *timeAxis > 1 || *batchAxis == *timeAxis)
    return node.error() << "batch_axis and time_axis must be 0 and 1",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Value init = createEmptyOfDims(b, loc, *type, input);
  AffineMap lengthMap = AffineMap::get(rank, 0, b.getAffineDimExpr(*batchAxis));
  int64_t time = *timeAxis;
  results.push_back(
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, ValueRange{node.input(1)}, init,
          ArrayRef<AffineMap>{lengthMap, b.getMultiDimIdentityMap(rank)},
          getParallelIterators(rank),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> position;
            for (int64_t d = 0; d < rank; ++d)
              position.push_back(linalg::IndexOp::create(nb, l, d));
            Value length =
                arith::IndexCastOp::create(nb, l, nb.getIndexType(), args[0]);
            Value t = position[time];
            Value reversed = arith::SubIOp::create(
                nb, l,
                arith::SubIOp::create(nb, l, length,
                                      arith::ConstantIndexOp::create(nb, l, 1)),
                t);
            Value inside = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::slt, t, length);
            position[time] =
                arith::SelectOp::create(nb, l, inside, reversed, t);
            Value element = tensor::ExtractOp::create(nb, l, input, position);
            linalg::YieldOp::create(nb, l, element);
          })
          .getResult(0));
  return success();
}

void onnx_plugin::addIndexingConverters(ConverterTable &table) {
  table["Gather"] = {convertGather};
  table["GatherElements"] = {convertGather};
  table["GatherND"] = {convertGatherND};
  table["Pad"] = {convertPad};
  table["Trilu"] = {convertTrilu};
  table["Range"] = {convertRange};
  table["ReverseSequence"] = {convertReverseSequence};
}
