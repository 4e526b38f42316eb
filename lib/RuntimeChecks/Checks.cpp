//===- Checks.cpp - Building run-time checks ------------------------------===//
//
// Helpers of the run-time check passes and of front ends that check their
// own ops' parameters: messages, sizes, products, and where checks go.
//
//===----------------------------------------------------------------------===//

#include "kiln/RuntimeChecks/Checks.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

using namespace mlir;
using namespace kiln;

/// The name a location gives, if any.
static std::optional<StringRef> getLocationName(Location loc) {
  std::optional<StringRef> name;
  loc->walk([&](Location nested) {
    if (auto named = dyn_cast<NameLoc>(nested)) {
      name = named.getName().getValue();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

std::string kiln::describeOp(Operation *op) {
  if (std::optional<StringRef> name = getLocationName(op->getLoc()))
    return ("'" + *name + "'").str();
  return ("'" + op->getName().getStringRef() + "'").str();
}

std::string kiln::describeValue(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    Block *block = argument.getOwner();
    if (!block->isEntryBlock() ||
        !isa_and_nonnull<FunctionOpInterface>(block->getParentOp()))
      return "";
    std::string index = "input " + std::to_string(argument.getArgNumber());
    if (std::optional<StringRef> name = getLocationName(argument.getLoc()))
      return ("'" + *name + "' (" + index + ")").str();
    return index;
  }
  Operation *def = value.getDefiningOp();
  if (std::optional<StringRef> name = getLocationName(def->getLoc()))
    return ("the result of '" + *name + "'").str();
  return "";
}

void kiln::createAssert(OpBuilder &builder, Location loc, Value condition,
                        StringRef message, ValueRange values) {
  if (matchPattern(condition, m_One()))
    return;
  AssertOp::create(builder, loc, condition, builder.getStringAttr(message),
                   values, /*runtime=*/Value());
}

Value kiln::createDimSize(OpBuilder &builder, Location loc, Value tensor,
                          int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(dim));
  return tensor::DimOp::create(builder, loc, tensor, dim);
}

std::pair<Value, Value> kiln::createCheckedProduct(OpBuilder &builder,
                                                   Location loc,
                                                   ValueRange factors) {
  Type i64 = builder.getI64Type();
  Value zero = arith::ConstantIntOp::create(builder, loc, i64, 0);
  Value product = arith::ConstantIntOp::create(builder, loc, i64, 1);
  Value overflow = arith::ConstantIntOp::create(builder, loc, 0, 1);
  Value signShift = arith::ConstantIntOp::create(builder, loc, i64, 63);
  for (Value factor : factors) {
    Value wide =
        factor.getType().isIndex()
            ? arith::IndexCastOp::create(builder, loc, i64, factor).getResult()
            : factor;
    auto extended = arith::MulSIExtendedOp::create(builder, loc, product, wide);
    // The high half must be the sign of the low one.
    Value sign =
        arith::ShRSIOp::create(builder, loc, extended.getLow(), signShift);
    Value lost = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                       extended.getHigh(), sign);
    Value negative = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::slt, wide, zero);
    overflow = arith::OrIOp::create(builder, loc, overflow, lost);
    overflow = arith::OrIOp::create(builder, loc, overflow, negative);
    product = extended.getLow();
  }
  Value result =
      arith::IndexCastOp::create(builder, loc, builder.getIndexType(), product);
  return {result, overflow};
}

void kiln::createRangeCheck(OpBuilder &builder, Location loc, Value values,
                            Value low, Value high, StringRef message) {
  auto type = cast<RankedTensorType>(values.getType());
  Type i64 = builder.getI64Type();
  auto fill = [&](int64_t value) -> Value {
    Value empty =
        tensor::EmptyOp::create(builder, loc, ArrayRef<int64_t>{}, i64);
    Value constant = arith::ConstantIntOp::create(builder, loc, i64, value);
    return linalg::FillOp::create(builder, loc, constant, empty).getResult(0);
  };
  auto toI64 = [&](OpBuilder &b, Location at, Value value) -> Value {
    if (value.getType().isIndex())
      return arith::IndexCastOp::create(b, at, i64, value);
    if (value.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(b, at, i64, value);
    return value;
  };
  Value lowBound = toI64(builder, loc, low),
        highBound = toI64(builder, loc, high);
  SmallVector<Value> inits = {fill(0),
                              fill(std::numeric_limits<int64_t>::max()),
                              fill(std::numeric_limits<int64_t>::min())};
  MLIRContext *context = builder.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, context)};
  maps.append(3, AffineMap::get(rank, 0, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto check = linalg::GenericOp::create(
      builder, loc, ValueRange(inits).getTypes(), ValueRange{values}, inits,
      maps, iterators, [&](OpBuilder &b, Location at, ValueRange args) {
        Value value = toI64(b, at, args[0]);
        Value outside = arith::OrIOp::create(
            b, at,
            arith::CmpIOp::create(b, at, arith::CmpIPredicate::slt, value,
                                  lowBound),
            arith::CmpIOp::create(b, at, arith::CmpIPredicate::sge, value,
                                  highBound));
        Value count = arith::AddIOp::create(
            b, at, args[1], arith::ExtUIOp::create(b, at, i64, outside));
        linalg::YieldOp::create(
            b, at,
            ValueRange{count, arith::MinSIOp::create(b, at, args[2], value),
                       arith::MaxSIOp::create(b, at, args[3], value)});
      });
  SmallVector<Value> results;
  for (Value result : check.getResults())
    results.push_back(
        tensor::ExtractOp::create(builder, loc, result, ValueRange{}));
  Value none =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, results[0],
                            arith::ConstantIntOp::create(builder, loc, i64, 0));
  createAssert(builder, loc, none, message,
               {results[0], results[1], results[2], lowBound, highBound});
}

/// Moves `op` just after the last op of its block that defines one of its
/// operands (or to the block's start), having moved those of them that have
/// no side effects the same way first.
static void hoist(Operation *op, DenseSet<Operation *> &hoisted) {
  if (!hoisted.insert(op).second)
    return;
  Block *block = op->getBlock();
  Operation *latest = nullptr;
  for (Value operand : op->getOperands()) {
    Operation *def = operand.getDefiningOp();
    if (!def)
      continue;
    def = block->findAncestorOpInBlock(*def);
    if (!def)
      continue;
    if (def->getNumRegions() == 0 && isMemoryEffectFree(def))
      hoist(def, hoisted);
    if (!latest || latest->isBeforeInBlock(def))
      latest = def;
  }
  if (latest)
    op->moveAfter(latest);
  else if (&block->front() != op)
    op->moveBefore(&block->front());
}

/// The ops of `root` that compute the operands of its assertions, and the
/// assertions.
static SmallVector<Operation *> collectCheckOps(Operation *root) {
  llvm::SetVector<Operation *> ops;
  root->walk([&](AssertOp assertion) {
    BackwardSliceOptions options;
    options.omitBlockArguments = true;
    options.filter = [&](Operation *op) {
      return root->isProperAncestor(op) && isMemoryEffectFree(op);
    };
    for (Value operand : assertion->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && options.filter(def)) {
        (void)getBackwardSlice(def, &ops, options);
        ops.insert(def);
      }
    ops.insert(assertion);
  });
  return ops.takeVector();
}

/// Replaces each `tensor.dim` of `root` by an equal one that dominates it,
/// so that sizes taken twice compare equal.
static void mergeDimOps(Operation *root) {
  DominanceInfo dominance(root);
  DenseMap<std::pair<Value, int64_t>, SmallVector<tensor::DimOp>> seen;
  SmallVector<tensor::DimOp> dims;
  root->walk<WalkOrder::PreOrder>(
      [&](tensor::DimOp dim) { dims.push_back(dim); });
  for (tensor::DimOp dim : dims) {
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!index)
      continue;
    SmallVector<tensor::DimOp> &earlier = seen[{dim.getSource(), *index}];
    auto *same = llvm::find_if(earlier, [&](tensor::DimOp other) {
      return dominance.properlyDominates(other.getResult(), dim);
    });
    if (same != earlier.end()) {
      dim.getResult().replaceAllUsesWith(same->getResult());
      dim.erase();
      continue;
    }
    earlier.push_back(dim);
  }
}

LogicalResult kiln::simplifyAssertions(Operation *root) {
  MLIRContext *context = root->getContext();
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  // Sizes of results in terms of their producers' operands, only where the
  // checks take them: the rest of the program stays as it is.
  SmallVector<Operation *> dims;
  for (Operation *op : collectCheckOps(root))
    if (auto dim = dyn_cast<tensor::DimOp>(op);
        dim && dim.getSource().getDefiningOp())
      dims.push_back(op);
  RewritePatternSet patterns(context);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  memref::populateResolveShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, context);
  if (!dims.empty() &&
      failed(applyOpPatternsGreedily(dims, std::move(patterns), config)))
    return failure();
  mergeDimOps(root);
  RewritePatternSet folds(context);
  AssertOp::getCanonicalizationPatterns(folds, context);
  SmallVector<Operation *> checkOps = collectCheckOps(root);
  if (!checkOps.empty() &&
      failed(applyOpPatternsGreedily(checkOps, std::move(folds), config)))
    return failure();

  // The constants and sizes the checks made but did not keep.
  SmallVector<Operation *> dead;
  root->walk([&](Operation *op) {
    if (isa<arith::ConstantOp, tensor::DimOp>(op) && isOpTriviallyDead(op))
      dead.push_back(op);
  });
  for (Operation *op : dead)
    op->erase();

  // Last first: each goes right after its operands, so checks that can go
  // to the same place keep the program's order.
  SmallVector<AssertOp> assertions;
  root->walk([&](AssertOp op) { assertions.push_back(op); });
  DenseSet<Operation *> hoisted;
  for (AssertOp op : llvm::reverse(assertions))
    hoist(op, hoisted);
  return success();
}
