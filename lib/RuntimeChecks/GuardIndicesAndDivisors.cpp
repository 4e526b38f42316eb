//===- GuardIndicesAndDivisors.cpp - Reads and divisions made safe --------===//
//
// Reads at indices computed from data and integer divisions by values that
// may be zero are made safe where they happen (an index out of range reads
// element 0, a bad divisor divides by 1: no read outside a buffer, no
// SIGFPE, even in the padding lanes of a masked vector), and checked before
// the op runs: by a kiln.assert on the host when the values are known
// there, else by a reduction over the op's inputs that counts the bad ones.
//
//===----------------------------------------------------------------------===//

#include "kiln/RuntimeChecks/Checks.h"
#include "kiln/RuntimeChecks/Passes.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_GUARDINDICESANDDIVISORSPASS
#include "kiln/RuntimeChecks/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Whether `op` is an integer division or remainder, and whether signed.
static std::optional<bool> getDivisionSignedness(Operation *op) {
  if (isa<arith::DivSIOp, arith::RemSIOp, arith::CeilDivSIOp,
          arith::FloorDivSIOp>(op))
    return true;
  if (isa<arith::DivUIOp, arith::RemUIOp, arith::CeilDivUIOp>(op))
    return false;
  return std::nullopt;
}

/// The message of a check of one division, of {0} by {1}.
static std::string describeBadDivision(bool isSigned) {
  return isSigned ? "an integer division of {0} by {1} (a division by zero, "
                    "or of the smallest integer by -1)"
                  : "an integer division of {0} by {1} (a division by zero)";
}

namespace {
/// The conditions that make a division undefined, built at `builder`'s
/// point from its dividend and divisor: null where it cannot happen.
struct DivisionHazards {
  Value zero;     // the divisor is 0
  Value overflow; // the smallest integer divided by -1 (signed only)

  /// The hazards of dividing `dividend` by `divisor`, built at `builder`'s
  /// point; a null dividend leaves out the one that needs it.
  static DivisionHazards build(OpBuilder &builder, Location loc, Value dividend,
                               Value divisor, bool isSigned) {
    DivisionHazards hazards;
    if (!divisor)
      return hazards;
    Type type = divisor.getType();
    auto constantValue = [](Value v) -> std::optional<APInt> {
      APInt value;
      if (v && matchPattern(v, m_ConstantInt(&value)))
        return value;
      return std::nullopt;
    };
    std::optional<APInt> constantDivisor = constantValue(divisor);
    std::optional<APInt> constantDividend = constantValue(dividend);
    if (!constantDivisor || constantDivisor->isZero())
      hazards.zero = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, divisor,
          arith::ConstantOp::create(builder, loc, builder.getZeroAttr(type)));
    bool minusOne = !constantDivisor || constantDivisor->isAllOnes();
    bool smallest = !constantDividend || constantDividend->isMinSignedValue();
    if (isSigned && dividend && minusOne && smallest) {
      unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
      Value min = arith::ConstantOp::create(
          builder, loc,
          builder.getIntegerAttr(type, APInt::getSignedMinValue(width)));
      Value allOnes = arith::ConstantOp::create(
          builder, loc, builder.getIntegerAttr(type, APInt::getAllOnes(width)));
      hazards.overflow = arith::AndIOp::create(
          builder, loc,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                dividend, min),
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, divisor,
                                allOnes));
    }
    return hazards;
  }

  /// Either hazard, or null when neither can happen.
  Value any(OpBuilder &builder, Location loc) const {
    if (zero && overflow)
      return arith::OrIOp::create(builder, loc, zero, overflow);
    return zero ? zero : overflow;
  }
};

/// A place in a linalg op's body that is checked: a read at a data-dependent
/// index, or a division.
struct Guard {
  /// Reads: true when the index is out of range; the index; the tensor read,
  /// which dimension, and its size (a host value).
  Value outOfRange, index, tensor, size;
  int64_t dim = 0;
  /// Divisions.
  DivisionHazards hazards;
};

/// Makes one linalg op's reads and divisions safe and checks them.
class OpGuarder {
public:
  explicit OpGuarder(linalg::LinalgOp op)
      : op(op), body(op.getBlock()), loc(op.getLoc()) {}

  void run();

private:
  bool dependsOnData(Value value);
  bool isDefinedOutside(Value value) {
    return !op->isAncestor(value.getParentBlock()->getParentOp());
  }
  void guardRead(tensor::ExtractOp extract);
  void guardDivision(Operation *division, bool isSigned);
  void checkBeforeOp(ArrayRef<Guard> guards);

  linalg::LinalgOp op;
  Block *body;
  Location loc;
  DenseMap<Value, bool> dataDependence;
  /// Guards whose condition varies over the op's iterations.
  SmallVector<Guard> varying;
};
} // namespace

bool OpGuarder::dependsOnData(Value value) {
  if (isDefinedOutside(value))
    return false;
  if (isa<BlockArgument>(value))
    return true;
  auto found = dataDependence.find(value);
  if (found != dataDependence.end())
    return found->second;
  Operation *def = value.getDefiningOp();
  bool result = isa<tensor::ExtractOp>(def) ||
                llvm::any_of(def->getOperands(),
                             [&](Value v) { return dependsOnData(v); });
  dataDependence[value] = result;
  return result;
}

void OpGuarder::guardRead(tensor::ExtractOp extract) {
  if (extract->hasAttr(KilnDialect::getCheckedIndicesAttrName()) ||
      !isDefinedOutside(extract.getTensor()))
    return;
  for (auto [d, operand] : llvm::enumerate(extract.getIndicesMutable())) {
    Value index = operand.get();
    if (!dependsOnData(index))
      continue;
    // The size, on the host; the check and the safe index in the body.
    OpBuilder host(op);
    Value size = createDimSize(host, loc, extract.getTensor(), d);
    OpBuilder builder(extract);
    Location at = extract.getLoc();
    Value zero = arith::ConstantIndexOp::create(builder, at, 0);
    Value outOfRange = arith::OrIOp::create(
        builder, at,
        arith::CmpIOp::create(builder, at, arith::CmpIPredicate::slt, index,
                              zero),
        arith::CmpIOp::create(builder, at, arith::CmpIPredicate::sge, index,
                              size));
    operand.set(arith::SelectOp::create(builder, at, outOfRange, zero, index));
    Guard guard;
    guard.outOfRange = outOfRange;
    guard.index = index;
    guard.tensor = extract.getTensor();
    guard.size = size;
    guard.dim = d;
    varying.push_back(guard);
  }
}

void OpGuarder::guardDivision(Operation *division, bool isSigned) {
  Value dividend = division->getOperand(0), divisor = division->getOperand(1);
  OpBuilder builder(division);
  Location at = division->getLoc();
  DivisionHazards hazards =
      DivisionHazards::build(builder, at, dividend, divisor, isSigned);
  Value bad = hazards.any(builder, at);
  if (!bad)
    return;
  Value one = arith::ConstantOp::create(
      builder, at, builder.getIntegerAttr(divisor.getType(), 1));
  division->setOperand(1,
                       arith::SelectOp::create(builder, at, bad, one, divisor));

  // What the host knows is checked there, before the op: a divisor from
  // the host (a mean's count), or both operands; the rest by the op's
  // check reduction.
  bool hostDivisor = isDefinedOutside(divisor);
  bool hostDividend = isDefinedOutside(dividend);
  OpBuilder host(op);
  DivisionHazards onHost =
      DivisionHazards::build(host, loc, hostDividend ? dividend : Value(),
                             hostDivisor ? divisor : Value(), isSigned);
  Value trueValue = arith::ConstantIntOp::create(host, loc, 1, 1);
  Guard guard;
  if (hazards.zero && hostDivisor)
    createAssert(host, loc,
                 arith::XOrIOp::create(host, loc, onHost.zero, trueValue),
                 describeOp(op) + ": an integer division by zero");
  else
    guard.hazards.zero = hazards.zero;
  if (hazards.overflow && hostDivisor && hostDividend)
    createAssert(host, loc,
                 arith::XOrIOp::create(host, loc, onHost.overflow, trueValue),
                 describeOp(op) + ": " + describeBadDivision(isSigned),
                 {dividend, divisor});
  else
    guard.hazards.overflow = hazards.overflow;
  if (guard.hazards.zero || guard.hazards.overflow)
    varying.push_back(guard);
}

void OpGuarder::run() {
  SmallVector<Operation *> sites;
  body->walk([&](Operation *nested) {
    if (isa<tensor::ExtractOp>(nested) || getDivisionSignedness(nested))
      sites.push_back(nested);
  });
  for (Operation *site : sites) {
    if (auto extract = dyn_cast<tensor::ExtractOp>(site))
      guardRead(extract);
    else
      guardDivision(site, *getDivisionSignedness(site));
  }
  if (!varying.empty())
    checkBeforeOp(varying);
}

/// The 0-d i64 tensor `value` fills, made at `builder`'s point.
static Value createScalarInit(OpBuilder &builder, Location loc, int64_t value) {
  Type i64 = builder.getI64Type();
  Value empty = tensor::EmptyOp::create(builder, loc, ArrayRef<int64_t>{}, i64);
  Value constant = arith::ConstantIntOp::create(builder, loc, i64, value);
  return linalg::FillOp::create(builder, loc, constant, empty).getResult(0);
}

/// A linalg.generic that counts, over the iterations of the op that the
/// guards depend on, how many are bad (and the range of a single guarded
/// index); then a kiln.assert on the host that all are good.
void OpGuarder::checkBeforeOp(ArrayRef<Guard> guards) {
  // What the conditions are computed from, in the body.
  SetVector<Operation *> slice;
  SmallVector<Value> roots;
  for (const Guard &guard : guards) {
    for (Value value : {guard.outOfRange, guard.index, guard.hazards.zero,
                        guard.hazards.overflow})
      if (value)
        roots.push_back(value);
  }
  BackwardSliceOptions options;
  options.inclusive = true;
  options.omitBlockArguments = true;
  options.filter = [&](Operation *nested) {
    return op->isProperAncestor(nested);
  };
  for (Value root : roots)
    if (Operation *def = root.getDefiningOp())
      (void)getBackwardSlice(def, &slice, options);
  SetVector<BlockArgument> arguments;
  SetVector<int64_t> loops;
  auto noteOperand = [&](Value value) {
    if (auto argument = dyn_cast<BlockArgument>(value);
        argument && argument.getOwner() == body)
      arguments.insert(argument);
  };
  for (Value root : roots)
    noteOperand(root);
  for (Operation *nested : slice) {
    for (Value operand : nested->getOperands())
      noteOperand(operand);
    if (auto index = dyn_cast<linalg::IndexOp>(nested))
      loops.insert(index.getDim());
  }
  // A reduction's running value is not an input the check can read.
  for (BlockArgument argument : arguments) {
    OpOperand *operand = op.getMatchingOpOperand(argument);
    if (op.isDpsInit(operand) && op.getNumReductionLoops() > 0)
      return;
  }

  // Iterate over the loops the guards depend on, when the operands read
  // give each of them its size; else over all of them.
  SmallVector<OpOperand *> operands;
  for (BlockArgument argument : arguments) {
    OpOperand *operand = op.getMatchingOpOperand(argument);
    operands.push_back(operand);
    for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults())
      expr.walk([&](AffineExpr sub) {
        if (auto dim = dyn_cast<AffineDimExpr>(sub))
          loops.insert(dim.getPosition());
      });
  }
  bool projected = llvm::all_of(loops, [&](int64_t loop) {
    return llvm::any_of(operands, [&](OpOperand *operand) {
      return op.getMatchingIndexingMap(operand)
          .getResultPosition(getAffineDimExpr(loop, op->getContext()))
          .has_value();
    });
  });
  SmallVector<int64_t> kept;
  if (projected) {
    kept.assign(loops.begin(), loops.end());
    llvm::sort(kept);
  } else {
    kept = llvm::to_vector(llvm::seq<int64_t>(0, op.getNumLoops()));
    operands.clear();
    for (OpOperand &operand : op->getOpOperands())
      operands.push_back(&operand);
  }
  MLIRContext *context = op->getContext();
  SmallVector<AffineExpr> renumber(op.getNumLoops(),
                                   getAffineConstantExpr(0, context));
  for (auto [position, loop] : llvm::enumerate(kept))
    renumber[loop] = getAffineDimExpr(position, context);

  OpBuilder host(op);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *operand : operands) {
    inputs.push_back(operand->get());
    maps.push_back(op.getMatchingIndexingMap(operand).replaceDimsAndSymbols(
        renumber, {}, kept.size(), 0));
  }
  bool reads = llvm::any_of(guards, [](const Guard &g) { return g.index; });
  bool divides = llvm::any_of(guards, [](const Guard &g) { return !g.index; });
  bool oneRead =
      llvm::count_if(guards, [](const Guard &g) { return g.index; }) == 1;
  // Outputs: [reads out of range, smallest index, largest index]
  // [divisions by zero, overflowing divisions].
  SmallVector<Value> inits;
  if (reads) {
    inits.push_back(createScalarInit(host, loc, 0));
    if (oneRead) {
      inits.push_back(
          createScalarInit(host, loc, std::numeric_limits<int64_t>::max()));
      inits.push_back(
          createScalarInit(host, loc, std::numeric_limits<int64_t>::min()));
    }
  }
  if (divides) {
    inits.push_back(createScalarInit(host, loc, 0));
    inits.push_back(createScalarInit(host, loc, 0));
  }
  AffineMap scalarMap = AffineMap::get(kept.size(), 0, context);
  maps.append(inits.size(), scalarMap);
  SmallVector<utils::IteratorType> iterators(kept.size(),
                                             utils::IteratorType::reduction);
  auto check = linalg::GenericOp::create(
      host, loc, ValueRange(inits).getTypes(), inputs, inits, maps, iterators,
      [&](OpBuilder &builder, Location at, ValueRange args) {
        IRMapping mapping;
        for (auto [operand, arg] : llvm::zip(operands, args))
          mapping.map(op.getMatchingBlockArgument(operand), arg);
        for (Operation *nested : slice) {
          if (auto index = dyn_cast<linalg::IndexOp>(nested)) {
            int64_t position = llvm::find(kept, index.getDim()) - kept.begin();
            mapping.map(index.getResult(),
                        linalg::IndexOp::create(builder, at, position));
            continue;
          }
          builder.clone(*nested, mapping);
        }
        Type i64 = builder.getI64Type();
        ValueRange accumulators = args.take_back(inits.size());
        SmallVector<Value> yielded;
        auto count = [&](Value sum, ArrayRef<Value> conditions) {
          for (Value condition : conditions)
            sum = arith::AddIOp::create(
                builder, at, sum,
                arith::ExtUIOp::create(builder, at, i64,
                                       mapping.lookupOrDefault(condition)));
          return sum;
        };
        unsigned next = 0;
        if (reads) {
          SmallVector<Value> bad;
          for (const Guard &guard : guards)
            if (guard.index)
              bad.push_back(guard.outOfRange);
          yielded.push_back(count(accumulators[next++], bad));
          if (oneRead) {
            const Guard &guard =
                *llvm::find_if(guards, [](const Guard &g) { return g.index; });
            Value index = arith::IndexCastOp::create(
                builder, at, i64, mapping.lookupOrDefault(guard.index));
            yielded.push_back(arith::MinSIOp::create(
                builder, at, accumulators[next++], index));
            yielded.push_back(arith::MaxSIOp::create(
                builder, at, accumulators[next++], index));
          }
        }
        if (divides) {
          SmallVector<Value> zero, overflow;
          for (const Guard &guard : guards) {
            if (guard.index)
              continue;
            if (guard.hazards.zero)
              zero.push_back(guard.hazards.zero);
            if (guard.hazards.overflow)
              overflow.push_back(guard.hazards.overflow);
          }
          yielded.push_back(count(accumulators[next++], zero));
          yielded.push_back(count(accumulators[next++], overflow));
        }
        linalg::YieldOp::create(builder, at, yielded);
      });

  auto result = [&](unsigned i) -> Value {
    return tensor::ExtractOp::create(host, loc, check.getResult(i),
                                     ValueRange{});
  };
  Value zero = arith::ConstantIntOp::create(host, loc, host.getI64Type(), 0);
  auto none = [&](Value count) {
    return arith::CmpIOp::create(host, loc, arith::CmpIPredicate::eq, count,
                                 zero);
  };
  unsigned next = 0;
  std::string name = describeOp(op);
  if (reads) {
    Value bad = result(next++);
    if (oneRead) {
      const Guard &guard =
          *llvm::find_if(guards, [](const Guard &g) { return g.index; });
      Value smallest = result(next++), largest = result(next++);
      std::string what = describeValue(guard.tensor);
      createAssert(host, loc, none(bad),
                   name +
                       ": {0} reads at an index outside [0, {1}) along "
                       "dimension " +
                       std::to_string(guard.dim) +
                       (what.empty() ? "" : " of " + what) +
                       " (the indices range from {2} to {3})",
                   {bad, guard.size, smallest, largest});
    } else {
      createAssert(host, loc, none(bad),
                   name + ": {0} reads at an index outside the tensor read",
                   {bad});
    }
  }
  if (divides) {
    Value byZero = result(next++), overflowing = result(next++);
    createAssert(
        host, loc,
        arith::AndIOp::create(host, loc, none(byZero), none(overflowing)),
        name + ": {0} integer divisions by zero and {1} of the "
               "smallest integer by -1",
        {byZero, overflowing});
  }
}

/// Makes an integer division outside any linalg op safe, and checks it.
static void guardHostDivision(Operation *division, bool isSigned) {
  Value dividend = division->getOperand(0), divisor = division->getOperand(1);
  OpBuilder builder(division);
  Location loc = division->getLoc();
  DivisionHazards hazards =
      DivisionHazards::build(builder, loc, dividend, divisor, isSigned);
  Value bad = hazards.any(builder, loc);
  if (!bad)
    return;
  Value one = arith::ConstantOp::create(
      builder, loc, builder.getIntegerAttr(divisor.getType(), 1));
  division->setOperand(
      1, arith::SelectOp::create(builder, loc, bad, one, divisor));
  Value good = arith::XOrIOp::create(
      builder, loc, bad, arith::ConstantIntOp::create(builder, loc, 1, 1));
  createAssert(builder, loc, good,
               describeOp(division) + ": " + describeBadDivision(isSigned),
               {dividend, divisor});
}

namespace {
struct GuardIndicesAndDivisorsPass
    : public kiln::impl::GuardIndicesAndDivisorsPassBase<
          GuardIndicesAndDivisorsPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    SmallVector<linalg::LinalgOp> linalgOps;
    SmallVector<Operation *> hostDivisions;
    root->walk([&](Operation *op) {
      // Kernels-to-be whose bodies are not linalg's are left as they are.
      if (op->getParentOfType<tensor::GenerateOp>() ||
          op->getParentOfType<tensor::PadOp>() ||
          op->getParentOfType<ExternalDispatchOp>())
        return;
      if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
        if (linalgOp.hasPureTensorSemantics())
          linalgOps.push_back(linalgOp);
        return;
      }
      if (getDivisionSignedness(op) &&
          !op->getParentOfType<linalg::LinalgOp>() &&
          isa<IntegerType, IndexType>(op->getResult(0).getType()))
        hostDivisions.push_back(op);
    });
    for (linalg::LinalgOp op : linalgOps)
      OpGuarder(op).run();
    for (Operation *division : hostDivisions)
      guardHostDivision(division, *getDivisionSignedness(division));
    if (failed(simplifyAssertions(root)))
      return signalPassFailure();
  }
};
} // namespace
