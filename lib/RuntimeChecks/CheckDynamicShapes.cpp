//===- CheckDynamicShapes.cpp - Sizes that must agree, checked at run time ===//
//
// Adds a kiln.assert for every relation between sizes that an op requires
// and that involves a size unknown at compile time: operands sharing a
// loop, windows inside their input, casts, reshapes, slices, concatenations
// and host indices.
//
//===----------------------------------------------------------------------===//

#include "kiln/RuntimeChecks/Checks.h"
#include "kiln/RuntimeChecks/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln {
#define GEN_PASS_DEF_CHECKDYNAMICSHAPESPASS
#include "kiln/RuntimeChecks/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
/// Makes the checks of one op, before it.
class ShapeChecker {
public:
  ShapeChecker(Operation *op) : op(op), builder(op), loc(op->getLoc()) {}

  void check(linalg::LinalgOp linalgOp);
  void check(tensor::CastOp cast);
  void check(tensor::ExpandShapeOp expand);
  void check(tensor::ReshapeOp reshape);
  void check(tensor::ConcatOp concat);
  void check(tensor::PadOp pad);
  void checkSlice(Value tensor, ArrayRef<OpFoldResult> offsets,
                  ArrayRef<OpFoldResult> sizes, ArrayRef<OpFoldResult> strides,
                  StringRef what);
  void checkIndices(Value tensor, ValueRange indices, StringRef what);

private:
  Value dim(Value tensor, int64_t d) {
    return createDimSize(builder, loc, tensor, d);
  }
  Value value(OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(builder, loc, ofr);
  }
  Value compare(arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b);
  }
  Value all(ValueRange conditions) {
    Value result = conditions.front();
    for (Value condition : conditions.drop_front())
      result = arith::AndIOp::create(builder, loc, result, condition);
    return result;
  }
  void require(Value condition, const Twine &message, ValueRange values) {
    createAssert(builder, loc, condition,
                 (describeOp(op) + ": " + message).str(), values);
  }
  /// "dimension 2 of 'x' (input 0)", or "of operand 1" when the operand has
  /// no better name.
  std::string describeDim(OpOperand &operand, int64_t d) {
    std::string name = describeValue(operand.get());
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op);
        dps && dps.isDpsInit(&operand))
      name = "the result";
    if (name.empty())
      name = "operand " + std::to_string(operand.getOperandNumber());
    return "dimension " + std::to_string(d) + " of " + name;
  }

  Operation *op;
  OpBuilder builder;
  Location loc;
};
} // namespace

static bool isDynamic(Value tensor) {
  auto type = dyn_cast<RankedTensorType>(tensor.getType());
  return type && !type.hasStaticShape();
}

/// `expr` evaluated at the largest value of each loop (`ranges[d] - 1`),
/// for sums and products of loops with constants that cannot be negative;
/// null for anything else.
static Value createLargestIndex(OpBuilder &builder, Location loc,
                                AffineExpr expr, ArrayRef<Value> ranges) {
  if (auto dimExpr = dyn_cast<AffineDimExpr>(expr)) {
    Value range = ranges[dimExpr.getPosition()];
    if (!range)
      return nullptr;
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    return arith::SubIOp::create(builder, loc, range, one);
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() < 0 ? nullptr
                                   : arith::ConstantIndexOp::create(
                                         builder, loc, constant.getValue())
                                         .getResult();
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || (expr.getKind() != AffineExprKind::Add &&
                  expr.getKind() != AffineExprKind::Mul))
    return nullptr;
  Value lhs = createLargestIndex(builder, loc, binary.getLHS(), ranges);
  Value rhs = createLargestIndex(builder, loc, binary.getRHS(), ranges);
  if (!lhs || !rhs)
    return nullptr;
  if (expr.getKind() == AffineExprKind::Add)
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  return arith::MulIOp::create(builder, loc, lhs, rhs);
}

void ShapeChecker::check(linalg::LinalgOp linalgOp) {
  if (!linalgOp.hasPureTensorSemantics() ||
      llvm::none_of(linalgOp->getOperands(), isDynamic))
    return;
  unsigned numLoops = linalgOp.getNumLoops();
  // Every operand dimension indexed by a loop alone, by loop.
  SmallVector<SmallVector<std::pair<OpOperand *, int64_t>>> byLoop(numLoops);
  SmallVector<std::pair<OpOperand *, int64_t>> windows;
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (auto loop = dyn_cast<AffineDimExpr>(expr))
        byLoop[loop.getPosition()].push_back({&operand, d});
      else if (!isa<AffineConstantExpr>(expr))
        windows.push_back({&operand, d});
    }
  }
  auto isStatic = [](std::pair<OpOperand *, int64_t> at) {
    return !cast<RankedTensorType>(at.first->get().getType())
                .isDynamicDim(at.second);
  };
  SmallVector<Value> ranges(numLoops);
  for (auto [loop, uses] : llvm::enumerate(byLoop)) {
    if (uses.empty())
      continue;
    // A static size, when there is one, is the one the others must meet.
    auto *base = llvm::find_if(uses, isStatic);
    if (base == uses.end())
      base = uses.begin();
    Value expected = dim(base->first->get(), base->second);
    ranges[loop] = expected;
    for (auto &use : uses) {
      if (&use == base || (isStatic(use) && isStatic(*base)))
        continue;
      Value actual = dim(use.first->get(), use.second);
      require(compare(arith::CmpIPredicate::eq, actual, expected),
              describeDim(*use.first, use.second) + " is {0}, but " +
                  describeDim(*base->first, base->second) +
                  " is {1}; they must be equal",
              {actual, expected});
    }
  }
  // Windows (convolutions, pooling): the largest index read must be in
  // the operand, unless some loop of the window is empty.
  for (auto [operand, d] : windows) {
    AffineExpr expr = linalgOp.getMatchingIndexingMap(operand).getResult(d);
    bool dynamic = !isStatic({operand, d});
    expr.walk([&](AffineExpr sub) {
      if (auto loop = dyn_cast<AffineDimExpr>(sub))
        if (auto range = ranges[loop.getPosition()];
            range && !getConstantIntValue(range))
          dynamic = true;
    });
    if (!dynamic)
      continue;
    Value largest = createLargestIndex(builder, loc, expr, ranges);
    if (!largest)
      continue;
    Value size = dim(operand->get(), d);
    Value fits = compare(arith::CmpIPredicate::slt, largest, size);
    expr.walk([&](AffineExpr sub) {
      if (auto loop = dyn_cast<AffineDimExpr>(sub)) {
        Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
        fits = arith::OrIOp::create(builder, loc, fits,
                                    compare(arith::CmpIPredicate::eq,
                                            ranges[loop.getPosition()], zero));
      }
    });
    require(fits,
            describeDim(*operand, d) + " is {0}, but the op reads it up to "
                                       "index {1}",
            {size, largest});
  }
}

void ShapeChecker::check(tensor::CastOp cast) {
  auto source = dyn_cast<RankedTensorType>(cast.getSource().getType());
  auto result = dyn_cast<RankedTensorType>(cast.getType());
  if (!source || !result)
    return;
  for (int64_t d = 0; d < result.getRank(); ++d) {
    if (!source.isDynamicDim(d) || result.isDynamicDim(d))
      continue;
    Value actual = dim(cast.getSource(), d);
    Value expected = dim(cast.getResult(), d);
    std::string name = describeValue(cast.getSource());
    require(compare(arith::CmpIPredicate::eq, actual, expected),
            "dimension " + Twine(d) + (name.empty() ? "" : " of " + name) +
                " is {0}, but the program needs {1} there",
            {actual, expected});
  }
}

void ShapeChecker::check(tensor::ExpandShapeOp expand) {
  RankedTensorType source = expand.getSrcType();
  SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
  for (auto [d, group] : llvm::enumerate(expand.getReassociationIndices())) {
    bool dynamic =
        source.isDynamicDim(d) || llvm::any_of(group, [&](int64_t i) {
          return !getConstantIntValue(sizes[i]).has_value();
        });
    if (!dynamic)
      continue;
    SmallVector<Value> factors;
    for (int64_t i : group)
      factors.push_back(value(sizes[i]));
    auto [product, overflow] = createCheckedProduct(builder, loc, factors);
    Value actual = dim(expand.getSrc(), d);
    Value same = compare(arith::CmpIPredicate::eq, product, actual);
    Value noOverflow =
        arith::XOrIOp::create(builder, loc, overflow,
                              arith::ConstantIntOp::create(builder, loc, 1, 1));
    require(all({same, noOverflow}),
            "dimension " + Twine(d) +
                " of its input is {0}, which cannot be split into "
                "dimensions of that product ({1})",
            {actual, product});
  }
}

void ShapeChecker::check(tensor::ReshapeOp reshape) {
  auto shapeType = cast<RankedTensorType>(reshape.getShape().getType());
  auto result = cast<RankedTensorType>(reshape.getType());
  auto source = cast<RankedTensorType>(reshape.getSource().getType());
  if (source.hasStaticShape() && result.hasStaticShape())
    return;
  SmallVector<Value> sourceDims, resultDims;
  for (int64_t d = 0; d < source.getRank(); ++d)
    sourceDims.push_back(dim(reshape.getSource(), d));
  for (int64_t d = 0; d < shapeType.getDimSize(0); ++d) {
    if (!result.isDynamicDim(d)) {
      resultDims.push_back(
          arith::ConstantIndexOp::create(builder, loc, result.getDimSize(d)));
      continue;
    }
    Value position = arith::ConstantIndexOp::create(builder, loc, d);
    Value size = tensor::ExtractOp::create(builder, loc, reshape.getShape(),
                                           ValueRange{position});
    if (!size.getType().isIndex())
      size = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                        size);
    resultDims.push_back(size);
  }
  auto [before, overflowBefore] =
      createCheckedProduct(builder, loc, sourceDims);
  auto [after, overflowAfter] = createCheckedProduct(builder, loc, resultDims);
  Value same = compare(arith::CmpIPredicate::eq, before, after);
  Value overflow =
      arith::OrIOp::create(builder, loc, overflowBefore, overflowAfter);
  Value valid = arith::AndIOp::create(
      builder, loc, same,
      arith::XOrIOp::create(builder, loc, overflow,
                            arith::ConstantIntOp::create(builder, loc, 1, 1)));
  require(valid,
          "a reshape of {0} elements into a shape of {1} elements (or of a "
          "negative size or one past 2^63)",
          {before, after});
}

void ShapeChecker::check(tensor::ConcatOp concat) {
  if (llvm::none_of(concat->getOperands(), isDynamic))
    return;
  int64_t axis = concat.getDim();
  OpOperand &first = concat->getOpOperand(0);
  for (OpOperand &operand : concat->getOpOperands().drop_front()) {
    auto type = cast<RankedTensorType>(operand.get().getType());
    auto firstType = cast<RankedTensorType>(first.get().getType());
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (d == axis || (!type.isDynamicDim(d) && !firstType.isDynamicDim(d)))
        continue;
      Value actual = dim(operand.get(), d);
      Value expected = dim(first.get(), d);
      require(compare(arith::CmpIPredicate::eq, actual, expected),
              describeDim(operand, d) + " is {0}, but " +
                  describeDim(first, d) +
                  " is {1}; a concatenation along dimension " + Twine(axis) +
                  " needs them equal",
              {actual, expected});
    }
  }
}

void ShapeChecker::check(tensor::PadOp pad) {
  for (auto [side, sizes] : {std::pair<StringRef, SmallVector<OpFoldResult>>{
                                 "low", pad.getMixedLowPad()},
                             {"high", pad.getMixedHighPad()}}) {
    for (auto [d, size] : llvm::enumerate(sizes)) {
      if (getConstantIntValue(size))
        continue;
      Value amount = value(size);
      Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
      require(compare(arith::CmpIPredicate::sge, amount, zero),
              "the " + side + " padding of dimension " + Twine(d) +
                  " is {0}; it must not be negative",
              {amount});
    }
  }
}

void ShapeChecker::checkSlice(Value tensor, ArrayRef<OpFoldResult> offsets,
                              ArrayRef<OpFoldResult> sizes,
                              ArrayRef<OpFoldResult> strides, StringRef what) {
  auto type = cast<RankedTensorType>(tensor.getType());
  std::string name = describeValue(tensor);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[d]);
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    std::optional<int64_t> stride = getConstantIntValue(strides[d]);
    if (offset && size && stride && !type.isDynamicDim(d))
      continue; // the verifier's
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    Value extent = dim(tensor, d);
    Value first = value(offsets[d]), count = value(sizes[d]),
          step = value(strides[d]);
    // 0 <= offset, (count - 1) * step <= extent - 1 - offset, checked by
    // division so that nothing overflows; an empty slice reads nothing.
    Value room = arith::SubIOp::create(
        builder, loc, arith::SubIOp::create(builder, loc, extent, one), first);
    Value positiveStep = compare(arith::CmpIPredicate::sgt, step, zero);
    Value safeStep =
        arith::SelectOp::create(builder, loc, positiveStep, step, one);
    Value reach = arith::DivSIOp::create(builder, loc, room, safeStep);
    Value last = arith::SubIOp::create(builder, loc, count, one);
    Value inside =
        all({compare(arith::CmpIPredicate::sge, first, zero),
             compare(arith::CmpIPredicate::sge, room, zero), positiveStep,
             compare(arith::CmpIPredicate::sle, last, reach)});
    Value empty = compare(arith::CmpIPredicate::eq, count, zero);
    Value valid = arith::OrIOp::create(builder, loc, empty, inside);
    require(
        arith::AndIOp::create(builder, loc, valid,
                              compare(arith::CmpIPredicate::sge, count, zero)),
        what +
            " of {1} elements from offset {0} with step {2} along "
            "dimension " +
            Twine(d) + (name.empty() ? "" : " of " + name) +
            ", whose size is {3}",
        {first, count, step, extent});
  }
}

void ShapeChecker::checkIndices(Value tensor, ValueRange indices,
                                StringRef what) {
  auto type = cast<RankedTensorType>(tensor.getType());
  std::string name = describeValue(tensor);
  for (auto [d, index] : llvm::enumerate(indices)) {
    std::optional<int64_t> constant = getConstantIntValue(index);
    if (constant && !type.isDynamicDim(d))
      continue; // the verifier's
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value extent = dim(tensor, d);
    require(all({compare(arith::CmpIPredicate::sge, index, zero),
                 compare(arith::CmpIPredicate::slt, index, extent)}),
            what + " at index {0} of dimension " + Twine(d) +
                (name.empty() ? "" : " of " + name) + ", whose size is {1}",
            {index, extent});
  }
}

/// Whether `op` is an op the checks look at: on the host, not in the body
/// of a linalg op (whose indices kiln-guard-indices-and-divisors guards).
static bool isOnHost(Operation *op) {
  return !op->getParentOfType<linalg::LinalgOp>() &&
         !op->getParentOfType<tensor::GenerateOp>() &&
         !op->getParentOfType<tensor::PadOp>();
}

namespace {
struct CheckDynamicShapesPass
    : public kiln::impl::CheckDynamicShapesPassBase<CheckDynamicShapesPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    SmallVector<Operation *> ops;
    root->walk([&](Operation *op) {
      if (isOnHost(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      ShapeChecker checker(op);
      llvm::TypeSwitch<Operation *>(op)
          .Case<linalg::LinalgOp, tensor::CastOp, tensor::ExpandShapeOp,
                tensor::ReshapeOp, tensor::ConcatOp, tensor::PadOp>(
              [&](auto typed) { checker.check(typed); })
          .Case([&](tensor::ExtractSliceOp slice) {
            checker.checkSlice(slice.getSource(), slice.getMixedOffsets(),
                               slice.getMixedSizes(), slice.getMixedStrides(),
                               "a slice");
          })
          .Case([&](tensor::InsertSliceOp slice) {
            checker.checkSlice(slice.getDest(), slice.getMixedOffsets(),
                               slice.getMixedSizes(), slice.getMixedStrides(),
                               "a write");
          })
          .Case([&](tensor::ExtractOp extract) {
            checker.checkIndices(extract.getTensor(), extract.getIndices(),
                                 "a read");
          })
          .Case([&](tensor::InsertOp insert) {
            checker.checkIndices(insert.getDest(), insert.getIndices(),
                                 "a write");
          });
    }

    if (failed(simplifyAssertions(root)))
      return signalPassFailure();
  }
};
} // namespace
