//===- WidenNarrowAccumulators.cpp - Sum narrow floats in f32 -------------===//
//
// A sum (or product) of f16, bf16 or 8-bit floats accumulated in its own
// type loses a bit per doubling of the partial sum and stops growing once
// the terms fall under half a unit of it: 16384 f16 ones add up to 2048.
// This pass gives such reductions an f32 accumulator: the init is extended,
// the combiner runs in f32 on extended terms, and the result is truncated
// once at the end, by an elementwise op that fusion and dispatch formation
// put next to the reduction.
//
//===----------------------------------------------------------------------===//

#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_WIDENNARROWACCUMULATORSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// True for float types narrower than f32.
static bool isNarrowFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return floatType && floatType.getWidth() < 32;
}

/// The positions of `op`'s inits that a narrow float accumulates into with
/// one add or multiply per step: what rounds a little at every step.
/// Maximum and minimum are exact and stay as they are.
static SmallVector<unsigned> getNarrowSums(linalg::LinalgOp op) {
  SmallVector<unsigned> positions;
  if (op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics())
    return positions;
  for (unsigned i = 0, e = op.getNumDpsInits(); i < e; ++i) {
    if (!isNarrowFloat(getElementTypeOrSelf(op.getDpsInits()[i].getType())))
      continue;
    SmallVector<Operation *> combiners;
    if (matchReduction(op.getRegionOutputArgs(), i, combiners) &&
        combiners.size() == 1 &&
        isa<arith::AddFOp, arith::MulFOp>(combiners.front()))
      positions.push_back(i);
  }
  return positions;
}

/// An empty tensor shaped like `like`, of `elementType`.
static Value createEmptyLike(OpBuilder &builder, Location loc, Value like,
                             Type elementType) {
  return tensor::EmptyOp::create(
      builder, loc, tensor::getMixedSizes(builder, loc, like), elementType);
}

/// `value` converted elementwise to `elementType` by an arith.extf or
/// arith.truncf per element; a fill is filled again with the converted
/// scalar instead.
static Value convertTensor(OpBuilder &builder, Location loc, Value value,
                           Type elementType) {
  bool extend = elementType.getIntOrFloatBitWidth() >
                getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
  auto convert = [&](OpBuilder &b, Location l, Value scalar) -> Value {
    if (extend)
      return arith::ExtFOp::create(b, l, elementType, scalar);
    return arith::TruncFOp::create(b, l, elementType, scalar);
  };
  Value empty = createEmptyLike(builder, loc, value, elementType);
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    return linalg::FillOp::create(builder, loc,
                                  convert(builder, loc, fill.value()), empty)
        .getResult(0);
  auto type = cast<RankedTensorType>(value.getType());
  AffineMap identity = builder.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             builder, loc, empty.getType(), value, empty,
             ArrayRef<AffineMap>{identity, identity}, iterators,
             [&](OpBuilder &b, Location l, ValueRange args) {
               linalg::YieldOp::create(b, l, convert(b, l, args[0]));
             })
      .getResult(0);
}

/// The body block of a linalg op on `operands` in `region`: an argument of
/// each operand's element type. The rewriter's insertion point goes into it.
static Block *createBody(RewriterBase &rewriter, Region &region,
                         ValueRange operands) {
  SmallVector<Type> types;
  SmallVector<Location> locs;
  for (Value operand : operands) {
    types.push_back(getElementTypeOrSelf(operand.getType()));
    locs.push_back(operand.getLoc());
  }
  return rewriter.createBlock(&region, region.end(), types, locs);
}

/// A named structured op like `op` (linalg.matmul, a convolution, ...) on
/// `inits`, its body made again by the op's own builder for their element
/// types: a matmul of f16 into f32 extends its operands before multiplying.
static Operation *rebuildNamedOp(RewriterBase &rewriter, linalg::LinalgOp op,
                                 ValueRange inits) {
  OperationState state(op.getLoc(), op->getName());
  state.addOperands(op.getDpsInputs());
  state.addOperands(inits);
  state.addAttributes(op->getAttrs());
  state.addTypes(inits.getTypes());
  Region *region = state.addRegion();
  Block *block = createBody(rewriter, *region, state.operands);
  ImplicitLocOpBuilder builder(op.getLoc(), rewriter);
  builder.setInsertionPointToStart(block);
  op.getRegionBuilder()(builder, *block, op->getAttrs(),
                        [&]() { return op->emitError(); });
  rewriter.setInsertionPoint(op);
  return rewriter.create(state);
}

/// A linalg.generic like `op` on `inits`: the combiner of each init whose
/// type differs from the old one runs in the new (wider) type on extended
/// terms.
static Operation *rebuildGeneric(RewriterBase &rewriter, linalg::GenericOp op,
                                 ValueRange inits) {
  Location loc = op.getLoc();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, inits.getTypes(), op.getInputs(), inits,
      op.getIndexingMapsArray(), op.getIteratorTypesArray());
  generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  Block *oldBody = op.getBody();
  Block *body =
      createBody(rewriter, generic.getRegion(), generic->getOperands());
  rewriter.setInsertionPointToStart(body);

  IRMapping mapping;
  unsigned numInputs = op.getNumDpsInputs();
  DenseMap<Operation *, unsigned> combinerPositions;
  for (unsigned i = 0, e = oldBody->getNumArguments(); i < e; ++i) {
    BlockArgument oldArg = oldBody->getArgument(i);
    BlockArgument newArg = body->getArgument(i);
    if (oldArg.getType() == newArg.getType()) {
      mapping.map(oldArg, newArg);
      continue;
    }
    // A widened accumulator: its combiner, its one use (matchReduction
    // says so), is rebuilt below.
    SmallVector<Operation *> combiners;
    (void)matchReduction(op.getRegionOutputArgs(), i - numInputs, combiners);
    combinerPositions[combiners.front()] = i - numInputs;
  }

  SmallVector<Value> wide(inits.size());
  for (Operation &oldOp : oldBody->without_terminator()) {
    auto it = combinerPositions.find(&oldOp);
    if (it == combinerPositions.end()) {
      rewriter.clone(oldOp, mapping);
      continue;
    }
    unsigned position = it->second;
    BlockArgument oldAcc = op.getRegionOutputArgs()[position];
    Value acc = body->getArgument(numInputs + position);
    SmallVector<Value> operands;
    for (Value operand : oldOp.getOperands()) {
      if (operand == oldAcc) {
        operands.push_back(acc);
        continue;
      }
      Value term = mapping.lookupOrDefault(operand);
      if (term.getType() != acc.getType())
        term = arith::ExtFOp::create(rewriter, loc, acc.getType(), term);
      operands.push_back(term);
    }
    OperationState state(oldOp.getLoc(), oldOp.getName(), operands,
                         acc.getType(), oldOp.getAttrs());
    // Its result's one use is the yield.
    wide[position] = rewriter.create(state)->getResult(0);
  }
  auto yield = cast<linalg::YieldOp>(oldBody->getTerminator());
  SmallVector<Value> yielded;
  for (auto [i, value] : llvm::enumerate(yield.getValues()))
    yielded.push_back(wide[i] ? wide[i] : mapping.lookupOrDefault(value));
  linalg::YieldOp::create(rewriter, yield.getLoc(), yielded);
  rewriter.setInsertionPoint(op);
  return generic;
}

/// Gives the narrow sums of `op` f32 accumulators and replaces `op`.
static LogicalResult widen(RewriterBase &rewriter, linalg::LinalgOp op,
                           ArrayRef<unsigned> positions) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  // Ops without a builder of their own (linalg.reduce) are rewritten as
  // the linalg.generic they are.
  bool named = !isa<linalg::GenericOp>(op) && op.getRegionBuilder();
  if (!named && !isa<linalg::GenericOp>(op)) {
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return failure();
    op = *generic;
    rewriter.setInsertionPoint(op);
  }

  Type f32 = rewriter.getF32Type();
  SmallVector<Value> inits(op.getDpsInits());
  for (unsigned position : positions)
    inits[position] = convertTensor(rewriter, loc, inits[position], f32);
  Operation *widened =
      named ? rebuildNamedOp(rewriter, op, inits)
            : rebuildGeneric(rewriter, cast<linalg::GenericOp>(op), inits);
  rewriter.setInsertionPointAfter(widened);
  SmallVector<Value> results(widened->getResults());
  for (unsigned position : positions)
    results[position] =
        convertTensor(rewriter, loc, results[position],
                      getElementTypeOrSelf(op->getResult(position).getType()));
  rewriter.replaceOp(op, results);
  return success();
}

namespace {
struct WidenNarrowAccumulatorsPass
    : public kiln::impl::WidenNarrowAccumulatorsPassBase<
          WidenNarrowAccumulatorsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<unsigned>>> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      SmallVector<unsigned> positions = getNarrowSums(op);
      if (!positions.empty())
        ops.emplace_back(op, std::move(positions));
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, positions] : ops)
      if (failed(widen(rewriter, op, positions))) {
        op->emitError("could not give its narrow float accumulator an f32 "
                      "one");
        return signalPassFailure();
      }
  }
};
} // namespace
