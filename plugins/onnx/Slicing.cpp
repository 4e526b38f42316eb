//===- Slicing.cpp - ONNX's ops that cut and join tensors -----------------===//
//
// Concat and Split as insert and extract slices; Slice as an extract slice
// (reversed along axes with negative steps), or, with bounds known at run
// time, a linalg.generic reading start + index * step.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

static LogicalResult convertConcat(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  FailureOr<int64_t> axis = node.getAxis("axis", 0, type->getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  // The result's size along the axis is the inputs' sum; the other dims
  // are any input's.
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type->getRank(); ++d) {
    if (!type->isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(type->getDimSize(d)));
      continue;
    }
    Value size = getDimSize(b, loc, node.input(0), d);
    for (unsigned i = 1; d == *axis && i < node.getNumInputs(); ++i)
      size = arith::AddIOp::create(b, loc, size,
                                   getDimSize(b, loc, node.input(i), d));
    sizes.push_back(size);
  }
  Value result = tensor::EmptyOp::create(b, loc, sizes, type->getElementType());
  Value offset = arith::ConstantIndexOp::create(b, loc, 0);
  for (unsigned i = 0; i < node.getNumInputs(); ++i) {
    Value input = node.input(i);
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<OpFoldResult> offsets(type->getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> inputSizes,
        strides(type->getRank(), b.getIndexAttr(1));
    for (int64_t d = 0; d < type->getRank(); ++d)
      inputSizes.push_back(inputType.isDynamicDim(d)
                               ? OpFoldResult(getDimSize(b, loc, input, d))
                               : b.getIndexAttr(inputType.getDimSize(d)));
    offsets[*axis] = offset;
    result = tensor::InsertSliceOp::create(b, loc, input, result, offsets,
                                           inputSizes, strides);
    offset =
        arith::AddIOp::create(b, loc, offset, getDimSize(b, loc, input, *axis));
  }
  results.push_back(result);
  return success();
}

static LogicalResult convertSplit(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"axis"})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(inputType))
    return failure();
  FailureOr<int64_t> axis = node.getAxis("axis", 0, inputType->getRank());
  if (failed(axis))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  // Each part's size along the axis: the `split` input's, else its
  // inferred type's, else an equal share.
  unsigned parts = node.getNumResults();
  Value offset = arith::ConstantIndexOp::create(b, loc, 0);
  Value whole = getDimSize(b, loc, input, *axis);
  std::optional<SmallVector<int64_t>> constantSplit;
  if (node.hasInput(1)) {
    auto splitType = dyn_cast<RankedTensorType>(node.input(1).getType());
    if (!splitType || splitType.getRank() != 1 ||
        (!splitType.isDynamicDim(0) && splitType.getDimSize(0) != parts))
      return node.error() << "its split (input 1) must be 1-D with one size "
                             "per output ("
                          << parts << ")",
             failure();
    constantSplit = matchConstantInts(node.input(1));
    if (constantSplit) {
      int64_t sum = 0;
      for (int64_t size : *constantSplit) {
        if (size < 0)
          return node.error()
                     << "its split (input 1) holds the negative size " << size,
                 failure();
        sum += size;
      }
      if (!inputType->isDynamicDim(*axis) &&
          sum != inputType->getDimSize(*axis))
        return node.error()
                   << "its split sizes (input 1) sum to " << sum
                   << ", but dimension " << *axis << " of its input is "
                   << inputType->getDimSize(*axis),
               failure();
    } else if (splitType.isDynamicDim(0)) {
      Value count = getDimSize(b, loc, node.input(1), 0);
      Value expected = arith::ConstantIndexOp::create(b, loc, parts);
      node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         count, expected),
                   "its split (input 1) holds {0} sizes for " + Twine(parts) +
                       " outputs",
                   {count});
    }
  }
  for (unsigned i = 0; i < parts; ++i) {
    FailureOr<RankedTensorType> type = node.getRankedResultType(i);
    if (failed(type))
      return failure();
    OpFoldResult size;
    if (node.hasInput(1) && !constantSplit) {
      Value position = arith::ConstantIndexOp::create(b, loc, i);
      Value value = tensor::ExtractOp::create(b, loc, node.input(1), position);
      Value given = arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
      node.require(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, given,
                                arith::ConstantIndexOp::create(b, loc, 0)),
          "size " + Twine(i) + " of its split (input 1) is {0}", {given});
      if (!type->isDynamicDim(*axis)) {
        Value expected =
            arith::ConstantIndexOp::create(b, loc, type->getDimSize(*axis));
        node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           given, expected),
                     "size " + Twine(i) +
                         " of its split (input 1) is {0}, but the model's "
                         "shapes say {1}",
                     {given, expected});
        size = b.getIndexAttr(type->getDimSize(*axis));
      } else {
        size = given;
      }
    } else if (constantSplit) {
      // A value where the result's type has no size, so that the slice
      // keeps that type.
      int64_t given = (*constantSplit)[i];
      size = type->isDynamicDim(*axis)
                 ? OpFoldResult(arith::ConstantIndexOp::create(b, loc, given))
                 : b.getIndexAttr(given);
    } else if (!type->isDynamicDim(*axis)) {
      size = b.getIndexAttr(type->getDimSize(*axis));
    } else {
      // Equal parts, the last one smaller when the dim does not divide.
      Value share = arith::CeilDivUIOp::create(
          b, loc, whole, arith::ConstantIndexOp::create(b, loc, parts));
      Value left = arith::SubIOp::create(
          b, loc, whole, arith::MinUIOp::create(b, loc, offset, whole));
      size = arith::MinUIOp::create(b, loc, share, left).getResult();
    }
    SmallVector<OpFoldResult> offsets(type->getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes,
        strides(type->getRank(), b.getIndexAttr(1));
    for (int64_t d = 0; d < type->getRank(); ++d)
      sizes.push_back(d == *axis ? OpFoldResult(size)
                      : type->isDynamicDim(d)
                          ? OpFoldResult(getDimSize(b, loc, input, d))
                          : b.getIndexAttr(type->getDimSize(d)));
    offsets[*axis] = offset;
    results.push_back(tensor::ExtractSliceOp::create(b, loc, *type, input,
                                                     offsets, sizes, strides));
    offset = arith::AddIOp::create(
        b, loc, offset, getValueOrCreateConstantIndexOp(b, loc, size));
  }
  // The sizes given must cover the dim exactly.
  if (node.hasInput(1) && (!constantSplit || inputType->isDynamicDim(*axis)))
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, offset, whole),
        "its split sizes (input 1) sum to {0}, but dimension " + Twine(*axis) +
            " of its input is {1}",
        {offset, whole});
  return success();
}

/// Slice with starts, ends, steps or axes known only at run time: each
/// result element read at start + index * step, the bounds clamped as ONNX
/// says. `axes` holds the constant axes, or nothing when input 3 is read
/// at run time.
static Value sliceAtRunTime(NodeConverter &node, RankedTensorType type,
                            std::optional<SmallVector<int64_t>> axes,
                            int64_t count) {
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  int64_t rank = type.getRank();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
  SmallVector<Value> starts(rank, zero), steps(rank, one), sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(getDimSize(b, loc, input, d));
  auto element = [&](unsigned operand, int64_t i) -> Value {
    Value position = arith::ConstantIndexOp::create(b, loc, i);
    Value value =
        tensor::ExtractOp::create(b, loc, node.input(operand), position);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
  };
  auto clamp = [&](Value value, Value low, Value high) -> Value {
    return arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, value, low), high);
  };
  auto wrap = [&](Value value, Value dim) -> Value {
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, zero);
    return arith::SelectOp::create(
        b, loc, negative, arith::AddIOp::create(b, loc, value, dim), value);
  };
  Value rankValue = arith::ConstantIndexOp::create(b, loc, rank);
  auto inRange = [&](Value value, Value low, Value high) -> Value {
    return arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value, low),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, high));
  };
  for (int64_t i = 0; i < count; ++i) {
    // The axis, and the size of the dim it names.
    Value axis;
    if (axes) {
      axis = arith::ConstantIndexOp::create(b, loc, (*axes)[i]);
    } else {
      Value given = element(3, i);
      node.require(inRange(given,
                           arith::SubIOp::create(b, loc, zero, rankValue),
                           rankValue),
                   "axis {0} (element " + Twine(i) +
                       " of input 3) is outside [-" + Twine(rank) + ", " +
                       Twine(rank) + ") for an input of rank " + Twine(rank),
                   {given});
      axis = wrap(given, rankValue);
    }
    Value dim = zero;
    SmallVector<Value> isAxis;
    for (int64_t d = 0; d < rank; ++d) {
      isAxis.push_back(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, axis,
                                arith::ConstantIndexOp::create(b, loc, d)));
      dim = arith::SelectOp::create(b, loc, isAxis[d],
                                    getDimSize(b, loc, input, d), dim);
    }
    Value step = node.hasInput(4) ? element(4, i) : one;
    if (node.hasInput(4))
      node.require(
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, step, zero),
          "its step for axis {0} (element " + Twine(i) + " of input 4) is 0",
          {axis});
    Value start = wrap(element(1, i), dim), end = wrap(element(2, i), dim);
    Value positive =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, step, zero);
    Value last = arith::SubIOp::create(b, loc, dim, one);
    // Steps up: start and end in [0, dim]. Down: start in [0, dim - 1],
    // end in [-1, dim - 1].
    start = arith::SelectOp::create(b, loc, positive, clamp(start, zero, dim),
                                    clamp(start, zero, last));
    end = arith::SelectOp::create(b, loc, positive, clamp(end, zero, dim),
                                  clamp(end, minusOne, last));
    Value span = arith::SelectOp::create(
        b, loc, positive, arith::SubIOp::create(b, loc, end, start),
        arith::SubIOp::create(b, loc, start, end));
    Value stride = arith::SelectOp::create(
        b, loc, positive, step, arith::SubIOp::create(b, loc, zero, step));
    Value size = arith::MaxSIOp::create(
        b, loc, arith::CeilDivSIOp::create(b, loc, span, stride), zero);
    for (int64_t d = 0; d < rank; ++d) {
      starts[d] = arith::SelectOp::create(b, loc, isAxis[d], start, starts[d]);
      steps[d] = arith::SelectOp::create(b, loc, isAxis[d], step, steps[d]);
      sizes[d] = arith::SelectOp::create(b, loc, isAxis[d], size, sizes[d]);
    }
  }
  SmallVector<OpFoldResult> mixed;
  for (int64_t d = 0; d < rank; ++d)
    mixed.push_back(type.isDynamicDim(d) ? OpFoldResult(sizes[d])
                                         : b.getIndexAttr(type.getDimSize(d)));
  Value init = tensor::EmptyOp::create(b, loc, mixed, type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)},
             getParallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> position;
               for (int64_t d = 0; d < rank; ++d) {
                 Value index = linalg::IndexOp::create(nb, l, d);
                 position.push_back(arith::AddIOp::create(
                     nb, l, starts[d],
                     arith::MulIOp::create(nb, l, index, steps[d])));
               }
               Value element =
                   tensor::ExtractOp::create(nb, l, input, position);
               linalg::YieldOp::create(nb, l, element);
             })
      .getResult(0);
}

static LogicalResult convertSlice(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(inputType))
    return failure();
  // ONNX 1.12 gives a Slice of starts computed at run time (in a loop
  // body, from the iteration) no rank: the input's, every size dynamic.
  FailureOr<RankedTensorType> type =
      isa<RankedTensorType>(node.getResultType(0))
          ? node.getRankedResultType(0)
          : RankedTensorType::get(SmallVector<int64_t>(inputType->getRank(),
                                                       ShapedType::kDynamic),
                                  inputType->getElementType());
  if (failed(type))
    return failure();
  int64_t rank = inputType->getRank();
  // Axes must be known; starts, ends and steps may come at run time.
  std::optional<SmallVector<int64_t>> starts = matchConstantInts(node.input(1));
  std::optional<SmallVector<int64_t>> ends = matchConstantInts(node.input(2));
  std::optional<SmallVector<int64_t>> steps;
  if (node.hasInput(4))
    steps = matchConstantInts(node.input(4));
  // Starts, ends, axes and steps are 1-D (a 0-d starts read a size it
  // does not have; found by the onnx_model fuzzer).
  static const char *const kNames[] = {"starts", "ends", "axes", "steps"};
  for (unsigned i = 1; i <= 4; ++i) {
    if (!node.hasInput(i)) {
      if (i > 2)
        continue;
      return node.error() << "it has no " << kNames[i - 1] << " (input " << i
                          << ")",
             failure();
    }
    auto parameter = dyn_cast<RankedTensorType>(node.input(i).getType());
    if (!parameter || parameter.getRank() != 1)
      return node.error() << "its " << kNames[i - 1] << " (input " << i
                          << ") is " << node.input(i).getType()
                          << "; Slice takes them as 1-D tensors",
             failure();
  }
  int64_t count = cast<RankedTensorType>(node.input(1).getType()).getDimSize(0);
  if (ShapedType::isDynamic(count))
    return node.error() << "the number of starts is unknown", failure();
  std::optional<SmallVector<int64_t>> axes = SmallVector<int64_t>();
  for (int64_t d = 0; d < count; ++d)
    axes->push_back(d);
  if (node.hasInput(3))
    axes = matchConstantInts(node.input(3));
  if (axes && static_cast<int64_t>(axes->size()) != count)
    return node.error() << "starts and axes differ in length", failure();
  if (axes) {
    for (int64_t &axis : *axes) {
      FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank, "axis");
      if (failed(normalized))
        return failure();
      axis = *normalized;
    }
  }
  if (!starts || !ends || !axes || (node.hasInput(4) && !steps)) {
    results.push_back(sliceAtRunTime(node, *type, axes, count));
    return success();
  }
  if (!steps)
    steps = SmallVector<int64_t>(count, 1);
  if (ends->size() != starts->size() || steps->size() != starts->size())
    return node.error() << "starts, ends, axes and steps differ in length",
           failure();

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
      strides(rank, b.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(inputType->isDynamicDim(d)
                        ? OpFoldResult(getDimSize(b, loc, input, d))
                        : b.getIndexAttr(inputType->getDimSize(d)));
  SmallVector<int64_t> reversed;
  SmallVector<int64_t> sliceShape(inputType->getShape());
  for (auto [i, axisValue] : llvm::enumerate(*axes)) {
    std::optional<int64_t> axis = axisValue;
    int64_t step = (*steps)[i];
    if (step == 0)
      return node.error() << "a step is 0", failure();
    int64_t dim = inputType->getDimSize(*axis);
    if (ShapedType::isDynamic(dim)) {
      // A dynamic dim: steps of 1 from a start to an end that stay
      // within the dim or run past its end.
      int64_t start = (*starts)[i], end = (*ends)[i];
      if (step != 1 || start < 0 || end < 0) {
        results.push_back(sliceAtRunTime(node, *type, axes, count));
        return success();
      }
      Value size = getDimSize(b, loc, input, *axis);
      Value first = arith::MinUIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, start), size);
      Value last = arith::MinUIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, end), size);
      Value count = arith::SubIOp::create(
          b, loc, arith::MaxUIOp::create(b, loc, last, first), first);
      offsets[*axis] = first;
      sizes[*axis] = count;
      sliceShape[*axis] = ShapedType::kDynamic;
      continue;
    }
    auto clampIndex = [](int64_t value, int64_t low, int64_t high) {
      return std::clamp(value, low, high);
    };
    int64_t start = (*starts)[i], end = (*ends)[i];
    if (start < 0)
      start += dim;
    if (end < 0)
      end += dim;
    int64_t count;
    if (step > 0) {
      start = clampIndex(start, 0, dim);
      end = clampIndex(end, 0, dim);
      count = std::max<int64_t>(0, (end - start + step - 1) / step);
      offsets[*axis] = b.getIndexAttr(start);
    } else {
      start = clampIndex(start, 0, dim - 1);
      end = clampIndex(end, -1, dim - 1);
      count = std::max<int64_t>(0, (start - end - step - 1) / -step);
      // The same elements read upwards, then reversed.
      offsets[*axis] = b.getIndexAttr(count ? start + (count - 1) * step : 0);
      if (count > 1)
        reversed.push_back(*axis);
    }
    sizes[*axis] = b.getIndexAttr(count);
    strides[*axis] = b.getIndexAttr(std::abs(step));
    sliceShape[*axis] = count;
  }
  auto sliceType = RankedTensorType::get(sliceShape, type->getElementType());
  Value slice = tensor::ExtractSliceOp::create(b, loc, sliceType, input,
                                               offsets, sizes, strides);
  if (!reversed.empty()) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(llvm::is_contained(reversed, d)
                          ? b.getAffineConstantExpr(sliceShape[d] - 1) -
                                b.getAffineDimExpr(d)
                          : b.getAffineDimExpr(d));
    Value init = createEmptyOfDims(b, loc, sliceType, slice);
    slice = buildCopy(b, loc, sliceType, slice, init,
                      AffineMap::get(rank, 0, exprs, b.getContext()));
  }
  results.push_back(slice);
  return success();
}

void onnx_plugin::addSlicingConverters(ConverterTable &table) {
  table["Concat"] = {convertConcat};
  table["Split"] = {convertSplit};
  table["Slice"] = {convertSlice};
}
