//===- Reductions.cpp - ONNX's reductions and softmax ---------------------===//
//
// ReduceSum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp and SumSquare
// as linalg.generic reductions (keepdims restored by an expand); ArgMax and
// ArgMin as a reduction carrying value and index; Softmax, LogSoftmax and
// Hardmax along one axis, each from a max and a sum over that axis.
// ReduceSum's axes may be a run-time input: then each dim is summed or not
// under host control flow.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

TypedAttr onnx_plugin::getExtremeAttr(OpBuilder &b, Type type, bool lowest,
                                      bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.getFloatAttr(type,
                          APFloat::getInf(floatType.getFloatSemantics(), lowest)
                              .convertToDouble());
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsigned ? (lowest ? APInt::getMinValue(width)
                                     : APInt::getMaxValue(width))
                           : (lowest ? APInt::getSignedMinValue(width)
                                     : APInt::getSignedMaxValue(width));
  return b.getIntegerAttr(type, value);
}

Value onnx_plugin::reduce(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> dims, TypedAttr init,
                          ReduceCombine combine) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> outputExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = llvm::is_contained(dims, d);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (reduced)
      continue;
    outputExprs.push_back(b.getAffineDimExpr(d));
    shape.push_back(type.getDimSize(d));
    sizes.push_back(type.isDynamicDim(d)
                        ? OpFoldResult(getDimSize(b, loc, input, d))
                        : b.getIndexAttr(type.getDimSize(d)));
  }
  Type element = init.getType();
  Value empty = tensor::EmptyOp::create(b, loc, sizes, element);
  Value start = arith::ConstantOp::create(b, loc, init);
  Value filled = linalg::FillOp::create(b, loc, start, empty).getResult(0);
  auto resultType = RankedTensorType::get(shape, element);
  return linalg::GenericOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input},
             ValueRange{filled},
             ArrayRef<AffineMap>{
                 b.getMultiDimIdentityMap(rank),
                 AffineMap::get(rank, 0, outputExprs, b.getContext())},
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, combine(nb, l, args[0], args[1]));
             })
      .getResult(0);
}

/// The number of elements of `input` over `dims`, as a scalar of `type`.
static Value countElements(OpBuilder &b, Location loc, Value input,
                           ArrayRef<int64_t> dims, Type type) {
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d : dims)
    count = arith::MulIOp::create(b, loc, count, getDimSize(b, loc, input, d));
  Value integer = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return castScalar(b, loc, integer, type, /*isUnsigned=*/true, false);
}

AffineMap onnx_plugin::getReducedMap(OpBuilder &b, int64_t rank,
                                     ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      exprs.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(rank, 0, exprs, b.getContext());
}

/// The axes a reduction reduces: from the `axes` input (ReduceSum) or
/// attribute, sorted; all dims when empty unless noop_with_empty_axes.
/// Sets `noop` when the reduction is an identity.
static FailureOr<SmallVector<int64_t>>
getReducedAxes(NodeConverter &node, int64_t rank, bool &noop) {
  FailureOr<int64_t> noopWithEmpty = node.getInt("noop_with_empty_axes", 0);
  if (failed(noopWithEmpty))
    return failure();
  SmallVector<int64_t> axes;
  if (node.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> given = node.getConstantInts(1, "axes");
    if (failed(given))
      return failure();
    axes = *given;
  } else {
    auto attribute = node.getInts("axes");
    if (failed(attribute))
      return failure();
    if (*attribute)
      axes = **attribute;
  }
  noop = axes.empty() && *noopWithEmpty;
  if (axes.empty() && !noop)
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  for (int64_t &axis : axes) {
    FailureOr<int64_t> normalized = node.normalizeAxis(axis, rank, "axis");
    if (failed(normalized))
      return failure();
    axis = *normalized;
  }
  llvm::sort(axes);
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

/// ReduceSum over axes known only at run time (its `axes` input is not a
/// constant): the host computes a mask of the reduced dims, sums each
/// dim under an scf.if when its bit is set (keeping it as a 1), and
/// without keepdims reshapes the result to drop the dims the mask names.
static FailureOr<Value> sumOverRuntimeAxes(NodeConverter &node,
                                           RankedTensorType type) {
  FailureOr<int64_t> keepDims = node.getInt("keepdims", 1);
  FailureOr<int64_t> noopWithEmpty = node.getInt("noop_with_empty_axes", 0);
  FailureOr<RankedTensorType> axesType = node.getRankedInputType(1);
  if (failed(keepDims) || failed(noopWithEmpty) || failed(axesType))
    return failure();
  if (axesType->getRank() != 1)
    return node.error() << "its axes (input 1) must be 1-D", failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  if (rank > 63)
    return node.error() << "rank " << rank << " is too large", failure();
  if (!*keepDims && type.getRank() >= rank)
    return node.error() << "without keepdims its result must have a lower "
                           "rank than its input",
           failure();

  // mask = OR of 1 << axis over the axes; empty axes mean all dims, or
  // none with noop_with_empty_axes.
  Value axes = node.input(1);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value count = getDimSize(b, loc, axes, 0);
  Value rankValue = arith::ConstantIndexOp::create(b, loc, rank);
  Value none = arith::ConstantIntOp::create(b, loc, 0, 64);
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{none},
      [&](OpBuilder &nb, Location l, Value k, ValueRange carried) {
        Value axis = tensor::ExtractOp::create(nb, l, axes, k);
        Value wide = castScalar(nb, l, axis, nb.getI64Type(), false, false);
        Value inRange = arith::AndIOp::create(
            nb, l,
            arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::sge, wide,
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(-rank))),
            arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::slt, wide,
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(rank))));
        node.require(inRange,
                     "an axis of its axes (input 1) is {0}, outside [-" +
                         Twine(rank) + ", " + Twine(rank) +
                         ") for an input of rank " + Twine(rank),
                     {wide}, &nb);
        Value wrapped = wrapIndex(nb, l, axis, rankValue);
        Value shift =
            arith::IndexCastOp::create(nb, l, nb.getI64Type(), wrapped);
        Value bit = arith::ShLIOp::create(
            nb, l, arith::ConstantIntOp::create(nb, l, 1, 64), shift);
        scf::YieldOp::create(
            nb, l, ValueRange{arith::OrIOp::create(nb, l, carried[0], bit)});
      });
  Value empty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, zero);
  Value all = arith::ConstantIntOp::create(
      b, loc, *noopWithEmpty ? 0 : (int64_t(1) << rank) - 1, 64);
  Value mask = arith::SelectOp::create(b, loc, empty, all, loop.getResult(0));
  SmallVector<Value> reducedBits;
  for (int64_t d = 0; d < rank; ++d) {
    Value shifted = arith::ShRUIOp::create(
        b, loc, mask, arith::ConstantIntOp::create(b, loc, d, 64));
    Value bit = arith::AndIOp::create(
        b, loc, shifted, arith::ConstantIntOp::create(b, loc, 1, 64));
    reducedBits.push_back(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit, none));
  }

  // Sum dim by dim; a dim of static size 1 needs no sum.
  Type element = type.getElementType();
  bool isFloat = isa<FloatType>(element);
  Value current = input;
  for (int64_t d = 0; d < rank; ++d) {
    auto currentType = cast<RankedTensorType>(current.getType());
    if (currentType.getDimSize(d) == 1)
      continue;
    SmallVector<int64_t> shape(currentType.getShape());
    shape[d] = ShapedType::kDynamic;
    auto stepType = currentType.clone(shape);
    SmallVector<int64_t> keptShape(currentType.getShape());
    keptShape[d] = 1;
    auto keptType = currentType.clone(keptShape);
    auto branch = scf::IfOp::create(
        b, loc, reducedBits[d],
        [&](OpBuilder &nb, Location l) {
          Value sum = reduce(
              nb, l, current, {d}, nb.getZeroAttr(element),
              [&](OpBuilder &ib, Location il, Value x, Value acc) -> Value {
                return isFloat
                           ? arith::AddFOp::create(ib, il, x, acc).getResult()
                           : arith::AddIOp::create(ib, il, x, acc).getResult();
              });
          Value kept = reshapeTo(nb, l, sum, keptType);
          scf::YieldOp::create(
              nb, l, ValueRange{tensor::CastOp::create(nb, l, stepType, kept)});
        },
        [&](OpBuilder &nb, Location l) {
          scf::YieldOp::create(
              nb, l,
              ValueRange{tensor::CastOp::create(nb, l, stepType, current)});
        });
    current = branch.getResult(0);
  }
  if (*keepDims)
    return tensor::CastOp::create(b, loc, type, current).getResult();

  // Without keepdims: result dim j is the j-th dim the mask keeps.
  SmallVector<Value> sizes;
  for (int64_t j = 0; j < type.getRank(); ++j) {
    Value size = zero, position = zero;
    Value target = arith::ConstantIndexOp::create(b, loc, j);
    for (int64_t d = 0; d < rank; ++d) {
      Value kept = arith::XOrIOp::create(
          b, loc, reducedBits[d], arith::ConstantIntOp::create(b, loc, 1, 1));
      Value here = arith::AndIOp::create(
          b, loc, kept,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, position,
                                target));
      size = arith::SelectOp::create(b, loc, here,
                                     getDimSize(b, loc, current, d), size);
      position = arith::AddIOp::create(
          b, loc, position, arith::SelectOp::create(b, loc, kept, one, zero));
    }
    sizes.push_back(size);
  }
  return tensor::ReshapeOp::create(b, loc, type, current,
                                   buildShapeTensor(b, loc, sizes))
      .getResult();
}

static LogicalResult convertReduce(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(
          node.checkAttributes({"axes", "keepdims", "noop_with_empty_axes"})))
    return failure();
  StringRef op = node.node.getOpType();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  if (op == "ReduceSum" && node.hasInput(1) &&
      !matchConstantInts(node.input(1))) {
    FailureOr<Value> sum = sumOverRuntimeAxes(node, *type);
    if (failed(sum))
      return failure();
    results.push_back(*sum);
    return success();
  }
  bool noop = false;
  FailureOr<SmallVector<int64_t>> axes =
      getReducedAxes(node, inputType->getRank(), noop);
  if (failed(axes))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Type element = type->getElementType();
  bool isFloat = isa<FloatType>(element);
  bool isUnsigned = node.isUnsignedInput(0);

  // Elementwise before (|x|, x*x, exp), the fold, and after (mean, sqrt,
  // log).
  auto add = [&](OpBuilder &nb, Location l, Value x, Value y) -> Value {
    return isFloat ? arith::AddFOp::create(nb, l, x, y).getResult()
                   : arith::AddIOp::create(nb, l, x, y).getResult();
  };
  auto mul = [&](OpBuilder &nb, Location l, Value x, Value y) -> Value {
    return isFloat ? arith::MulFOp::create(nb, l, x, y).getResult()
                   : arith::MulIOp::create(nb, l, x, y).getResult();
  };
  Value reduced;
  if (noop) {
    reduced = input;
  } else if (op == "ReduceMax" || op == "ReduceMin") {
    bool isMax = op == "ReduceMax";
    reduced = reduce(
        b, loc, input, *axes, getExtremeAttr(b, element, isMax, isUnsigned),
        [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
          if (isFloat)
            return isMax ? arith::MaximumFOp::create(nb, l, x, acc).getResult()
                         : arith::MinimumFOp::create(nb, l, x, acc).getResult();
          if (isUnsigned)
            return isMax ? arith::MaxUIOp::create(nb, l, x, acc).getResult()
                         : arith::MinUIOp::create(nb, l, x, acc).getResult();
          return isMax ? arith::MaxSIOp::create(nb, l, x, acc).getResult()
                       : arith::MinSIOp::create(nb, l, x, acc).getResult();
        });
  } else if (op == "ReduceProd") {
    reduced = reduce(b, loc, input, *axes, b.getOneAttr(element), mul);
  } else if (op == "ReduceLogSumExp") {
    if (!isFloat)
      return node.error() << "it needs a float input", failure();
    // max + log(sum(exp(x - max))): no overflow for large x.
    Value max =
        reduce(b, loc, input, *axes, getExtremeAttr(b, element, true, false),
               [](OpBuilder &nb, Location l, Value x, Value acc) {
                 return arith::MaximumFOp::create(nb, l, x, acc).getResult();
               });
    int64_t rank = inputType->getRank();
    // Where every element is -inf, subtract 0 instead: log(0) stays -inf.
    auto getShift = [&](OpBuilder &nb, Location l, Value max) -> Value {
      Value lowest = arith::ConstantOp::create(
          nb, l, getExtremeAttr(nb, element, true, false));
      Value empty =
          arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OEQ, max, lowest);
      Value zero = arith::ConstantOp::create(nb, l, nb.getZeroAttr(element));
      return arith::SelectOp::create(nb, l, empty, zero, max);
    };
    RankedTensorType shiftedType = inputType->clone(element);
    Value init = createEmptyLike(b, loc, shiftedType, input);
    Value shifted =
        linalg::GenericOp::create(
            b, loc, TypeRange{shiftedType}, ValueRange{input, max},
            ValueRange{init},
            ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                                getReducedMap(b, rank, *axes),
                                b.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value shift = getShift(nb, l, args[1]);
              Value difference = arith::SubFOp::create(nb, l, args[0], shift);
              Value exponential = math::ExpOp::create(nb, l, difference);
              linalg::YieldOp::create(nb, l, exponential);
            })
            .getResult(0);
    Value sum = reduce(b, loc, shifted, *axes, b.getZeroAttr(element), add);
    auto sumType = cast<RankedTensorType>(sum.getType());
    reduced = buildElementwise(
        b, loc, sumType, ValueRange{sum, max},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value shift = getShift(nb, l, args[1]);
          return arith::AddFOp::create(nb, l, shift,
                                       math::LogOp::create(nb, l, args[0]));
        });
  } else {
    // Sums: of x, |x| (L1), x*x (L2, SumSquare), then mean, sqrt or log.
    bool absolute = op == "ReduceL1";
    bool square = op == "ReduceL2" || op == "ReduceSumSquare";
    reduced =
        reduce(b, loc, input, *axes, b.getZeroAttr(element),
               [&](OpBuilder &nb, Location l, Value x, Value acc) -> Value {
                 if (absolute)
                   x = isFloat ? math::AbsFOp::create(nb, l, x).getResult()
                       : isUnsigned
                           ? x
                           : math::AbsIOp::create(nb, l, x).getResult();
                 if (square)
                   x = mul(nb, l, x, x);
                 return add(nb, l, x, acc);
               });
    bool mean = op == "ReduceMean", root = op == "ReduceL2",
         logarithm = op == "ReduceLogSum";
    if (mean || root || logarithm) {
      if ((root || logarithm) && !isFloat)
        return node.error() << "it needs a float input", failure();
      Value count =
          mean ? countElements(b, loc, input, *axes, element) : Value();
      auto sumType = cast<RankedTensorType>(reduced.getType());
      reduced = buildElementwise(
          b, loc, sumType, ValueRange{reduced},
          [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
            if (root)
              return math::SqrtOp::create(nb, l, args[0]);
            if (logarithm)
              return math::LogOp::create(nb, l, args[0]);
            if (isFloat)
              return arith::DivFOp::create(nb, l, args[0], count);
            return isUnsigned ? arith::DivUIOp::create(nb, l, args[0], count)
                                    .getResult()
                              : arith::DivSIOp::create(nb, l, args[0], count)
                                    .getResult();
          });
    }
  }
  Value result = reshapeTo(b, loc, reduced, *type);
  if (!result)
    return node.error() << "cannot restore the reduced dims", failure();
  results.push_back(result);
  return success();
}

void onnx_plugin::addReductionConverters(ConverterTable &table) {
  for (StringRef op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin",
                       "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
                       "ReduceLogSumExp", "ReduceSumSquare"})
    table[op] = {convertReduce};
  addSoftmaxConverters(table);
}
