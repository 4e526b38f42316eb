//===- FormDispatchRegions.cpp - Group ops into dispatch regions ----------===//
//
// Picks root ops, grows each into a cluster of fusable producers and
// consumers, and wraps the cluster in a kiln.dispatch.region whose workload
// and result shapes are computed on the host.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Dialect/Kiln/Utils/RootOps.h"
#include "kiln/DispatchFormation/Passes.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_FORMDISPATCHREGIONSPASS
#include "kiln/DispatchFormation/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// True when `value` can be used right before `point`.
static bool isAvailableAt(Value value, Operation *point) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Block *owner = arg.getOwner();
    return owner == point->getBlock() ||
           owner->findAncestorOpInBlock(*point) != nullptr;
  }
  Operation *def = value.getDefiningOp();
  Operation *ancestor = def->getBlock()->findAncestorOpInBlock(*point);
  return ancestor && ancestor != def && def->isBeforeInBlock(ancestor);
}

/// Sorts ops of one block into block order.
static void sortInBlockOrder(SmallVectorImpl<Operation *> &ops) {
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
}

/// Moves the side-effect-free ops that compute `values` and sit after
/// `point` right before it, keeping their order. Moves nothing and fails
/// when one of them is `point`, is in `forbidden`, or has side effects.
static LogicalResult
hoistBefore(ArrayRef<Value> values, Operation *point,
            const llvm::SetVector<Operation *> &forbidden) {
  Block *block = point->getBlock();
  llvm::SetVector<Operation *> toMove;
  SmallVector<Value> worklist(values.begin(), values.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (isAvailableAt(value, point))
      continue;
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != block || def == point ||
        forbidden.contains(def) || !isMemoryEffectFree(def))
      return failure();
    if (!toMove.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(def->getRegions(), captured);
    llvm::append_range(worklist, captured);
  }
  SmallVector<Operation *> ordered(toMove.begin(), toMove.end());
  sortInBlockOrder(ordered);
  for (Operation *op : ordered)
    op->moveBefore(point);
  return success();
}

/// Ops copied into every dispatch that uses them: allocations of undefined
/// contents, splat constants, and fills of those.
static bool isCloneable(Operation *op) {
  if (isa<tensor::EmptyOp>(op))
    return true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    return dense && dense.isSplat();
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (!fill.hasPureTensorSemantics())
      return false;
    Operation *init = fill.getDpsInits()[0].getDefiningOp();
    return init && isCloneable(init);
  }
  return false;
}

/// All-parallel linalg ops whose maps are projected permutations: the ops
/// that fuse into a dispatch's tiles without recomputation.
static bool isElementwiseLike(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumLoops() != linalgOp.getNumParallelLoops())
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    // Inputs may also broadcast from unit dims, as TOSA's `(d0, 0, d2)`.
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return false;
    if (linalgOp.isDpsInit(&operand) && !map.isPermutation())
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Cluster formation
//===----------------------------------------------------------------------===//

namespace {
/// The ops that make one dispatch, before its region exists.
struct Cluster {
  Operation *root = nullptr;
  /// Ops moved into the region: the root, fused consumers and producers.
  llvm::SetVector<Operation *> moved;
  /// Ops copied into the region; the originals stay for their other users.
  llvm::SetVector<Operation *> cloned;

  bool contains(Operation *op) const {
    return moved.contains(op) || cloned.contains(op);
  }
};

class RegionFormer {
public:
  RegionFormer(RewriterBase &rewriter) : rewriter(rewriter) {}

  /// Forms the dispatch regions of `block` and of the host blocks nested in
  /// it.
  LogicalResult formInBlock(Block &block);

private:
  LogicalResult formWithRoot(Operation *root);
  Cluster buildCluster(Operation *root, bool fuse);
  bool isFusableConsumer(OpOperand &use, const Cluster &cluster);
  bool isFusableProducer(Operation *op, const Cluster &cluster);
  LogicalResult makeOperandsAvailable(Operation *consumer,
                                      const Cluster &cluster);
  FailureOr<DispatchRegionOp> createRegion(Cluster &cluster);
  LogicalResult computeHostValues(Cluster &cluster, ArrayRef<Value> yielded,
                                  SmallVectorImpl<Value> &workload,
                                  SmallVectorImpl<Value> &resultDims,
                                  RewriterBase::Listener &listener);

  RewriterBase &rewriter;
  /// Ops already moved into a region.
  DenseSet<Operation *> assigned;
};
} // namespace

/// Whether every use of `op`'s results is inside ops of `cluster.moved`.
static bool allUsesInCluster(Operation *op, const Cluster &cluster) {
  Block *block = op->getBlock();
  for (OpOperand &use : op->getUses()) {
    Operation *user = block->findAncestorOpInBlock(*use.getOwner());
    if (!user || !cluster.moved.contains(user))
      return false;
  }
  return true;
}

/// Whether a run-time check (kiln.assert) lies between `first` and `last`
/// in their block: a consumer moved up into its producer's dispatch would
/// run before the check that guards its operands.
static bool isCheckBetween(Operation *first, Operation *last) {
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    if (isa<AssertOp>(op))
      return true;
    if (op->getNumRegions() && op->walk([](AssertOp) {
                                   return WalkResult::interrupt();
                                 }).wasInterrupted())
      return true;
  }
  return false;
}

bool RegionFormer::isFusableConsumer(OpOperand &use, const Cluster &cluster) {
  Operation *user = use.getOwner();
  if (user->getBlock() != cluster.root->getBlock() || assigned.count(user) ||
      cluster.contains(user) || isHeavyRoot(user) || !isElementwiseLike(user) ||
      isCheckBetween(cluster.root, user))
    return false;
  // The consumer must visit each element of the value exactly once.
  auto linalgOp = cast<linalg::LinalgOp>(user);
  auto type = cast<RankedTensorType>(use.get().getType());
  return linalgOp.getNumLoops() == static_cast<unsigned>(type.getRank()) &&
         linalgOp.getMatchingIndexingMap(&use).isPermutation();
}

/// Whether each element `use` feeds is read once per tile of its user, so
/// that computing it inside the user's tiles recomputes nothing: the user's
/// indexing map for it must involve every parallel loop. (A matmul reads A
/// for every tile along N; fusing A's producer would recompute it there.)
static bool isReadOncePerTile(OpOperand &use) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!linalgOp)
    return true;
  AffineMap map = linalgOp.getMatchingIndexingMap(&use);
  for (auto [dim, type] : llvm::enumerate(linalgOp.getIteratorTypesArray()))
    if (type == utils::IteratorType::parallel && !map.isFunctionOfDim(dim))
      return false;
  return true;
}

/// Whether `use` is the image a convolution or pooling slides its window
/// over. Padding that image fuses into the convolution although tiles of
/// output channels or neighbouring rows read its elements again: padding
/// is a copy, and the convolution reads every element many times over
/// anyway; a dispatch of its own would write and read the whole padded
/// image once more.
static bool isConvolutionImage(OpOperand &use) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
  return linalgOp && linalg::isaConvolutionOpInterface(linalgOp) &&
         linalgOp.isDpsInput(&use) && use.getOperandNumber() == 0;
}

bool RegionFormer::isFusableProducer(Operation *op, const Cluster &cluster) {
  if (isHeavyRoot(op) || !allUsesInCluster(op, cluster))
    return false;
  if (isa<tensor::PadOp>(op) && llvm::all_of(op->getUses(), isConvolutionImage))
    return true;
  if (!isElementwiseLike(op) &&
      !isa<tensor::PadOp, tensor::ExtractSliceOp, linalg::FillOp>(op))
    return false;
  return llvm::all_of(op->getUses(), isReadOncePerTile);
}

LogicalResult RegionFormer::makeOperandsAvailable(Operation *consumer,
                                                  const Cluster &cluster) {
  SmallVector<Value> needed;
  auto consider = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (def && (cluster.contains(def) || isCloneable(def)))
      return;
    needed.push_back(value);
  };
  for (Value operand : consumer->getOperands())
    consider(operand);
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(consumer->getRegions(), captured);
  for (Value value : captured)
    consider(value);
  llvm::SetVector<Operation *> forbidden = cluster.moved;
  forbidden.insert(consumer);
  return hoistBefore(needed, cluster.root, forbidden);
}

Cluster RegionFormer::buildCluster(Operation *root, bool fuse) {
  Cluster cluster;
  cluster.root = root;
  cluster.moved.insert(root);
  Block *block = root->getBlock();

  // Consumers: a chain of elementwise ops, each over a result of the one
  // before.
  Operation *tail = root;
  while (fuse && isa<TilingInterface>(root)) {
    Operation *next = nullptr;
    for (Value result : tail->getResults()) {
      for (OpOperand &use : result.getUses()) {
        if (!isFusableConsumer(use, cluster))
          continue;
        if (!next || use.getOwner()->isBeforeInBlock(next))
          next = use.getOwner();
      }
    }
    if (!next || failed(makeOperandsAvailable(next, cluster)))
      break;
    cluster.moved.insert(next);
    tail = next;
  }

  // Producers: cloneable ones always, fusable ones when asked to fuse.
  SmallVector<Operation *> worklist(cluster.moved.begin(), cluster.moved.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != block || cluster.contains(def) ||
          assigned.count(def))
        continue;
      if (isCloneable(def)) {
        cluster.cloned.insert(def);
        worklist.push_back(def);
      } else if (fuse && isFusableProducer(def, cluster)) {
        cluster.moved.insert(def);
        worklist.push_back(def);
      }
    }
  }
  return cluster;
}

namespace {
/// Records the ops a rewrite creates, forgetting those it erases again.
struct CreatedOps : public RewriterBase::Listener {
  llvm::SetVector<Operation *> ops;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    ops.insert(op);
  }
  void notifyOperationErased(Operation *op) override { ops.remove(op); }

  /// Erases the recorded ops nothing uses any more.
  void eraseDead(RewriterBase &rewriter) {
    SmallVector<Operation *> candidates(ops.begin(), ops.end());
    ops.clear();
    DenseSet<Operation *> erased;
    bool changed = true;
    while (changed) {
      changed = false;
      for (Operation *op : llvm::reverse(candidates)) {
        if (erased.contains(op) || !isOpTriviallyDead(op))
          continue;
        erased.insert(op);
        rewriter.eraseOp(op);
        changed = true;
      }
    }
  }
};
} // namespace

/// Rewrites `tensor.dim` of results of ops that can reify their shapes
/// into dims of their operands, repeatedly, so that shapes end up in terms
/// of values the host has.
static void resolveDims(MLIRContext *context, ArrayRef<Operation *> ops,
                        RewriterBase::Listener *listener) {
  RewritePatternSet patterns(context);
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  memref::populateResolveShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, context);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  config.setListener(listener);
  (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
}

LogicalResult RegionFormer::computeHostValues(
    Cluster &cluster, ArrayRef<Value> yielded, SmallVectorImpl<Value> &workload,
    SmallVectorImpl<Value> &resultDims, RewriterBase::Listener &listener) {
  Operation *root = cluster.root;
  Location loc = root->getLoc();
  SmallVector<Value> values;

  // The workload: the root's parallel loop sizes, or its result's shape.
  rewriter.setInsertionPoint(root);
  if (auto tiling = dyn_cast<TilingInterface>(root)) {
    SmallVector<Range> domain = tiling.getIterationDomain(rewriter);
    for (auto [range, type] :
         llvm::zip_equal(domain, tiling.getLoopIteratorTypes())) {
      if (type == utils::IteratorType::parallel)
        values.push_back(
            getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
    }
  } else if (root->getNumResults() > 0) {
    Value result = root->getResult(0);
    auto type = cast<ShapedType>(result.getType());
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      if (!type.isDynamicDim(dim)) {
        values.push_back(arith::ConstantIndexOp::create(rewriter, loc,
                                                        type.getDimSize(dim)));
        continue;
      }
      rewriter.setInsertionPointAfter(root);
      values.push_back(tensor::DimOp::create(rewriter, loc, result, dim));
      rewriter.setInsertionPoint(root);
    }
  }
  unsigned numWorkload = values.size();

  // The dynamic dims of every result.
  for (Value value : yielded) {
    auto type = cast<ShapedType>(value.getType());
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      if (!type.isDynamicDim(dim))
        continue;
      rewriter.setInsertionPointAfterValue(value);
      values.push_back(tensor::DimOp::create(rewriter, loc, value, dim));
    }
  }

  // Resolve the dims through the cluster's ops. A holder op keeps track of
  // the values while patterns replace the ops that define them.
  SmallVector<Operation *> ordered(cluster.moved.begin(), cluster.moved.end());
  sortInBlockOrder(ordered);
  rewriter.setInsertionPointAfter(ordered.back());
  auto holder =
      UnrealizedConversionCastOp::create(rewriter, loc, TypeRange(), values);
  SmallVector<Operation *> toResolve;
  for (Value value : values)
    if (Operation *def = value.getDefiningOp())
      toResolve.push_back(def);
  resolveDims(rewriter.getContext(), toResolve, &listener);
  values.assign(holder->operand_begin(), holder->operand_end());
  rewriter.eraseOp(holder);

  if (failed(hoistBefore(values, root, cluster.moved)))
    return failure();
  workload.assign(values.begin(), values.begin() + numWorkload);
  resultDims.assign(values.begin() + numWorkload, values.end());
  return success();
}

FailureOr<DispatchRegionOp> RegionFormer::createRegion(Cluster &cluster) {
  Operation *root = cluster.root;

  // Everything the cluster uses from outside must exist before the root.
  llvm::SetVector<Value> external;
  for (Operation *op :
       llvm::concat<Operation *const>(cluster.moved, cluster.cloned)) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !cluster.contains(def))
        external.insert(operand);
    }
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value value : captured) {
      Operation *def = value.getDefiningOp();
      if (!def || !cluster.contains(def))
        external.insert(value);
    }
  }
  if (failed(hoistBefore(external.getArrayRef(), root, cluster.moved)))
    return failure();

  // Results: every value of a moved op that is used outside the cluster.
  SmallVector<Operation *> movedOrdered(cluster.moved.begin(),
                                        cluster.moved.end());
  sortInBlockOrder(movedOrdered);
  Block *block = root->getBlock();
  SmallVector<Value> yielded;
  for (Operation *op : movedOrdered) {
    for (Value result : op->getResults()) {
      bool usedOutside = llvm::any_of(result.getUses(), [&](OpOperand &use) {
        Operation *user = block->findAncestorOpInBlock(*use.getOwner());
        return !user || !cluster.moved.contains(user);
      });
      if (usedOutside)
        yielded.push_back(result);
    }
  }

  // Ops created while computing shapes that end up unused are erased again
  // once the region exists, so they keep nothing alive.
  CreatedOps created;
  llvm::scope_exit eraseUnused([&] {
    rewriter.setListener(nullptr);
    created.eraseDead(rewriter);
  });
  rewriter.setListener(&created);
  SmallVector<Value> workload, resultDims;
  if (failed(
          computeHostValues(cluster, yielded, workload, resultDims, created)))
    return failure();
  rewriter.setListener(nullptr);

  // Build the region and move the cluster into it, in block order.
  rewriter.setInsertionPoint(root);
  auto region = DispatchRegionOp::create(rewriter, root->getLoc(),
                                         ValueRange(yielded).getTypes(),
                                         workload, resultDims);
  Block *body = rewriter.createBlock(&region.getBody());
  SmallVector<Operation *> ordered(cluster.moved.begin(), cluster.moved.end());
  llvm::append_range(ordered, cluster.cloned);
  sortInBlockOrder(ordered);
  IRMapping clones;
  for (Operation *op : ordered) {
    rewriter.setInsertionPointToEnd(body);
    if (cluster.cloned.contains(op))
      rewriter.clone(*op, clones);
    else
      rewriter.moveOpBefore(op, body, body->end());
  }
  for (Operation *op : cluster.cloned) {
    for (Value result : op->getResults()) {
      rewriter.replaceUsesWithIf(
          result, clones.lookup(result), [&](OpOperand &use) {
            return region->isProperAncestor(use.getOwner());
          });
    }
  }
  rewriter.setInsertionPointToEnd(body);
  ReturnOp::create(rewriter, root->getLoc(), yielded);

  for (auto [value, result] : llvm::zip_equal(yielded, region.getResults())) {
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return !region->isProperAncestor(use.getOwner());
    });
  }
  for (Operation *op : cluster.moved)
    assigned.insert(op);
  return region;
}

LogicalResult RegionFormer::formWithRoot(Operation *root) {
  Cluster fused = buildCluster(root, /*fuse=*/true);
  if (succeeded(createRegion(fused)))
    return success();
  // Fall back to the root alone when the fused cluster's shapes cannot be
  // computed on the host.
  Cluster alone = buildCluster(root, /*fuse=*/false);
  if (succeeded(createRegion(alone)))
    return success();
  return root->emitError()
         << "cannot form a dispatch: the shape of this op's iteration space "
            "or results cannot be computed on the host";
}

LogicalResult RegionFormer::formInBlock(Block &block) {
  // Host control flow first: dispatches inside scf.if, scf.for, ...
  for (Operation &op : block) {
    if (isDispatchable(&op) || isa<DispatchRegionOp>(op))
      continue;
    for (Region &region : op.getRegions())
      for (Block &nested : region)
        if (failed(formInBlock(nested)))
          return failure();
  }

  // Roots in three rounds: heavy roots, then other compute ops, then the
  // cloneable ones (fills of empty tensors), which usually have been cloned
  // into every dispatch that uses them by then and are dead.
  SmallVector<Operation *> heavy, light, cloneable;
  for (Operation &op : block) {
    if (isHeavyRoot(&op))
      heavy.push_back(&op);
    else if (isDispatchable(&op))
      (isCloneable(&op) ? cloneable : light).push_back(&op);
  }
  for (Operation *op : llvm::concat<Operation *>(heavy, light, cloneable)) {
    if (assigned.count(op))
      continue;
    if (op->use_empty()) {
      rewriter.eraseOp(op);
      continue;
    }
    if (failed(formWithRoot(op)))
      return failure();
  }
  return success();
}

namespace {
struct FormDispatchRegionsPass
    : public kiln::impl::FormDispatchRegionsPassBase<FormDispatchRegionsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    RegionFormer former(rewriter);
    for (Block &block : getOperation().getBody())
      if (failed(former.formInBlock(block)))
        return signalPassFailure();
  }
};
} // namespace
