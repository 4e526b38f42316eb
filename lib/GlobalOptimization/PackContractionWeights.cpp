//===- PackContractionWeights.cpp - Constant weights in panels ------------===//
//
// The CPU contraction pipeline multiplies a register tile of rows of A by a
// panel of B as wide as the tile (two vectors), one row of the panel per
// step. Where B is a model's weight, a constant, that panel is laid out
// here once, at compile time: B becomes N/P x K x P, each panel contiguous,
// and the contraction a generic whose loop n splits into the panel `no` and
// the column within it `ni`, its result collapsed back. Without this the
// generated code packs B at run time in every call, and a weight stored
// transposed (N x K, a linear layer's) is packed element by element.
// Elementwise fusion then moves the collapse past the epilogue (bias,
// activation), which stays in the contraction's dispatch.
//
//===----------------------------------------------------------------------===//

#include "TransposeConstant.h"
#include "WeightPanels.h"
#include "kiln/GlobalOptimization/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_PACKCONTRACTIONWEIGHTSPASS
#include "kiln/GlobalOptimization/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// A contraction to rewrite: its constant operand, the loops that index it,
/// and the panel width in columns.
struct PackableWeight {
  unsigned operand;
  DenseElementsAttr weight;
  /// Whether the constant is stored N x K (transposed) rather than K x N.
  bool transposed;
  unsigned n, k;
  int64_t panel;
  /// N, and N rounded up to whole panels (the constant padded with zeros).
  int64_t columns() const {
    return cast<RankedTensorType>(weight.getType())
        .getDimSize(transposed ? 0 : 1);
  }
  int64_t paddedColumns() const { return llvm::alignTo(columns(), panel); }
};
} // namespace

/// The constant of `op` the pass packs, when `op` is a contraction on
/// tensors whose operands and result share one float type, and one input
/// is a dense constant (not a splat) of `minBytes` or more indexed by
/// exactly one reduction loop k and one parallel loop n, n the result's
/// innermost dim and absent from the other input, with N at least one
/// panel of `panelBytes` (more than one where the constant is K x N: one
/// such panel is its own layout). A last partial panel is padded with
/// zeros where the result starts as a fill (its padding columns are sliced
/// off after).
static std::optional<PackableWeight>
getPackableWeight(linalg::LinalgOp op, int64_t panelBytes, int64_t minBytes) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op) ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap initMap = op.getMatchingIndexingMap(init);
  if (initMap.getNumResults() == 0)
    return std::nullopt;
  auto innermost = dyn_cast<AffineDimExpr>(initMap.getResults().back());
  if (!innermost || !llvm::is_contained(dims->n, innermost.getPosition()))
    return std::nullopt;
  unsigned n = innermost.getPosition();
  Type element = getElementTypeOrSelf(init->get());
  if (!isa<FloatType>(element) || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;

  for (OpOperand *input : op.getDpsInputOperands()) {
    Attribute value;
    if (!matchPattern(input->get(), m_Constant(&value)))
      continue;
    DenseElementsAttr weight = kiln::getDenseElements(value);
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!weight || weight.isSplat() || map.getNumResults() != 2)
      continue;
    auto first = dyn_cast<AffineDimExpr>(map.getResult(0));
    auto second = dyn_cast<AffineDimExpr>(map.getResult(1));
    if (!first || !second)
      continue;
    bool transposed = first.getPosition() == n;
    unsigned k = transposed ? second.getPosition() : first.getPosition();
    if ((transposed ? first : second).getPosition() != n ||
        !llvm::is_contained(dims->k, k))
      continue;
    OpOperand *other = op.getDpsInputOperand(1 - input->getOperandNumber());
    if (op.getMatchingIndexingMap(other).isFunctionOfDim(n) ||
        getElementTypeOrSelf(other->get()) != element ||
        weight.getElementType() != element)
      return std::nullopt;
    auto type = cast<RankedTensorType>(weight.getType());
    int64_t columns = type.getDimSize(transposed ? 0 : 1);
    int64_t panel = panelBytes / bytes;
    if (panel < 1 || columns < panel || (columns == panel && !transposed) ||
        type.getNumElements() * bytes < minBytes)
      return std::nullopt;
    int64_t paddedColumns = llvm::alignTo(columns, panel);
    auto fill = init->get().getDefiningOp<linalg::FillOp>();
    if (paddedColumns != columns &&
        (!fill || !fill.getOutputs().front().getDefiningOp<tensor::EmptyOp>()))
      return std::nullopt;
    return PackableWeight{
        input->getOperandNumber(), weight, transposed, n, k, panel};
  }
  return std::nullopt;
}

/// Rewrites `op` to read `packable`'s constant in panels.
static void packWeight(RewriterBase &rewriter, linalg::LinalgOp op,
                       const PackableWeight &packable) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  MLIRContext *context = rewriter.getContext();
  int64_t p = packable.panel;

  // K x N -> K x N/P x P -> N/P x K x P, or N x K -> N/P x P x K -> N/P x
  // K x P.
  // The padding columns first, zeros.
  int64_t columnDim = packable.transposed ? 0 : 1;
  DenseElementsAttr weight = packable.weight;
  if (packable.paddedColumns() != packable.columns())
    weight = kiln::padConstant(weight, columnDim, packable.paddedColumns());
  auto type = cast<RankedTensorType>(weight.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> split =
      packable.transposed ? SmallVector<int64_t>{shape[0] / p, p, shape[1]}
                          : SmallVector<int64_t>{shape[0], shape[1] / p, p};
  DenseElementsAttr packed = kiln::transposeConstant(
      weight.reshape(RankedTensorType::get(split, type.getElementType())),
      packable.transposed ? ArrayRef<int64_t>{0, 2, 1}
                          : ArrayRef<int64_t>{1, 0, 2});
  Value packedWeight = arith::ConstantOp::create(rewriter, loc, packed);

  Value init =
      kiln::expandToPanels(rewriter, loc, op.getDpsInits()[0],
                           packable.columns(), packable.paddedColumns(), p);

  // Loops: n becomes `no` and `ni` right after it; the loops after n move
  // up by one.
  unsigned numLoops = op.getNumLoops() + 1;
  unsigned n = packable.n;
  auto moved = [&](unsigned d) { return d > n ? d + 1 : d; };
  auto remap = [&](AffineMap map) {
    SmallVector<AffineExpr> results;
    for (AffineExpr result : map.getResults()) {
      unsigned d = cast<AffineDimExpr>(result).getPosition();
      results.push_back(getAffineDimExpr(moved(d), context));
      if (d == n)
        results.push_back(getAffineDimExpr(n + 1, context));
    }
    return AffineMap::get(numLoops, 0, results, context);
  };
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    if (operand.getOperandNumber() == packable.operand)
      maps.push_back(
          AffineMap::get(numLoops, 0,
                         {getAffineDimExpr(n, context),
                          getAffineDimExpr(moved(packable.k), context),
                          getAffineDimExpr(n + 1, context)},
                         context));
    else
      maps.push_back(remap(op.getMatchingIndexingMap(&operand)));
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  iterators.insert(iterators.begin() + n + 1, utils::IteratorType::parallel);

  SmallVector<Value> inputs = op.getDpsInputs();
  inputs[packable.operand] = packedWeight;
  auto generic =
      linalg::GenericOp::create(rewriter, loc, TypeRange{init.getType()},
                                inputs, ValueRange{init}, maps, iterators);
  rewriter.cloneRegionBefore(op->getRegion(0), generic.getRegion(),
                             generic.getRegion().end());
  Value result =
      kiln::collapsePanels(rewriter, loc, generic.getResult(0),
                           packable.columns(), op->getResultTypes()[0]);
  rewriter.replaceOp(op, result);
}

namespace {
struct PackContractionWeightsPass
    : public kiln::impl::PackContractionWeightsPassBase<
          PackContractionWeightsPass> {
  using PackContractionWeightsPassBase::PackContractionWeightsPassBase;

  LogicalResult initialize(MLIRContext *context) override {
    panel = kiln::resolveWeightPanelBytes(context, panelBytes, targets, cpus,
                                          cpuFeatures);
    return success();
  }

  void runOnOperation() override {
    if (panel <= 0)
      return;
    SmallVector<std::pair<linalg::LinalgOp, PackableWeight>> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<PackableWeight> packable =
              getPackableWeight(op, panel, minWeightBytes))
        ops.emplace_back(op, *packable);
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, packable] : ops)
      packWeight(rewriter, op, packable);
  }

  int64_t panel = 0;
};
} // namespace
