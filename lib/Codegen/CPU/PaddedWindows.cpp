//===- PaddedWindows.cpp - Padding fused into convolution tiles ----------===//
//
// A convolution's padding, fused into its dispatch, is made tile by tile.
// A tile away from the image's borders reads the image in place. A tile at
// a border either copies its part of the image into a padded tile (the
// workgroup's part, for convolutions that sum over input channels and read
// it once per tile of output channels) or, for a register strip of a
// pooling or a depthwise convolution, reads its window from the image row
// by row, each row of the window that lies in the padding a masked read
// that touches no memory and yields the padding value: such a strip does
// 9 multiply-adds per output vector, and copying its window cost four
// times what the strip computes.
//
//===----------------------------------------------------------------------===//

#include "TilingUtils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace kiln;

/// Marks the choice buildRowUniformVersion makes between a window padded
/// along its width and one that is not; readPaddedWindows folds those it
/// could not version back to the padded one.
static constexpr llvm::StringLiteral kRowUniformVersion =
    "kiln.row_uniform_version";

/// The value every element of `generate` is, when it is one value.
static Value getUniformValue(tensor::GenerateOp generate) {
  auto yield =
      cast<tensor::YieldOp>(generate.getBody().front().getTerminator());
  Value value = yield.getValue();
  if (generate.getBody().isAncestor(value.getParentRegion()))
    return {};
  return value;
}

/// The tile `pad` makes, built at the rewriter's insertion point: a copy
/// of the image's part, and fills of the frame around it with the padding
/// value, dim by dim: along dim d, the slabs before and after it, spanning
/// the image's part in the dims before d and the whole tile in those after
/// (a pad's elements are written once, the image's never twice).
static Value buildPaddedTile(RewriterBase &rewriter, tensor::PadOp pad,
                             Value padding, ArrayRef<OpFoldResult> shape) {
  Location loc = pad.getLoc();
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(shape))
    if (pad.getResultType().isDynamicDim(dim))
      dynamicSizes.push_back(
          getValueOrCreateConstantIndexOp(rewriter, loc, size));
  Value tile =
      tensor::EmptyOp::create(rewriter, loc, pad.getResultType(), dynamicSizes);
  SmallVector<OpFoldResult> low = pad.getMixedLowPad();
  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(rewriter, loc, pad.getSource());
  SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
  Value interior =
      tensor::ExtractSliceOp::create(rewriter, loc, tile, low, sizes, strides);
  Value copied =
      linalg::CopyOp::create(rewriter, loc, pad.getSource(), interior)
          .getResult(0);
  tile = tensor::InsertSliceOp::create(rewriter, loc, copied, tile, low, sizes,
                                       strides);
  SmallVector<OpFoldResult> high = pad.getMixedHighPad();
  AffineExpr a, b;
  bindSymbols(rewriter.getContext(), a, b);
  for (unsigned d = 0; d < sizes.size(); ++d) {
    for (bool before : {true, false}) {
      OpFoldResult width = before ? low[d] : high[d];
      if (isZeroInteger(width))
        continue;
      SmallVector<OpFoldResult> offsets, extents;
      for (unsigned j = 0; j < sizes.size(); ++j) {
        if (j < d) {
          offsets.push_back(low[j]);
          extents.push_back(sizes[j]);
        } else if (j > d) {
          offsets.push_back(rewriter.getIndexAttr(0));
          extents.push_back(shape[j]);
        } else {
          offsets.push_back(
              before ? rewriter.getIndexAttr(0)
                     : affine::makeComposedFoldedAffineApply(
                           rewriter, loc, a + b, {low[d], sizes[d]}));
          extents.push_back(width);
        }
      }
      Value slab = tensor::ExtractSliceOp::create(rewriter, loc, tile, offsets,
                                                  extents, strides);
      Value filled =
          linalg::FillOp::create(rewriter, loc, padding, slab).getResult(0);
      tile = tensor::InsertSliceOp::create(rewriter, loc, filled, tile, offsets,
                                           extents, strides);
    }
  }
  return tile;
}

/// True at run time when `pad` pads nothing (a workgroup's part of the
/// image away from its borders); null when it always pads.
static Value buildPadsNothing(RewriterBase &rewriter, tensor::PadOp pad) {
  Location loc = pad.getLoc();
  Value result;
  for (OpFoldResult width : llvm::concat<OpFoldResult>(pad.getMixedLowPad(),
                                                       pad.getMixedHighPad())) {
    std::optional<int64_t> constant = getConstantIntValue(width);
    if (constant && *constant != 0)
      return {};
    if (constant)
      continue;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value isZero = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, cast<Value>(width), zero);
    result =
        result
            ? arith::AndIOp::create(rewriter, loc, result, isZero).getResult()
            : isZero;
  }
  return result ? result : arith::ConstantIntOp::create(rewriter, loc, 1, 1);
}

/// Uniform tensor.generate ops (what tiling makes of a tile entirely in
/// the padding) become fills, which vectorize and which slices fold into.
void kiln::materializeGenerates(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<tensor::GenerateOp> generates;
  func.walk([&](tensor::GenerateOp op) { generates.push_back(op); });
  for (tensor::GenerateOp generate : generates) {
    Value value = getUniformValue(generate);
    if (!value)
      continue;
    rewriter.setInsertionPoint(generate);
    Location loc = generate.getLoc();
    Value empty = tensor::EmptyOp::create(rewriter, loc, generate.getType(),
                                          generate.getDynamicExtents());
    rewriter.replaceOp(
        generate,
        linalg::FillOp::create(rewriter, loc, value, empty).getResult(0));
  }
}

/// The padding value of `pad` where a read of its result can be made of
/// reads of its source: a constant, and no padding along the innermost dim
/// (a row of the vector is then a row of the source, or all padding).
/// Null otherwise.
static Value getRowPaddingValue(tensor::PadOp pad) {
  Value padding = pad.getConstantPaddingValue();
  if (!padding || pad.getNofold() || pad.getResultType().getRank() == 0)
    return {};
  unsigned innermost = pad.getResultType().getRank() - 1;
  if (!isZeroInteger(pad.getMixedLowPad()[innermost]) ||
      !isZeroInteger(pad.getMixedHighPad()[innermost]))
    return {};
  return padding;
}

/// For a window kept as a pad (read row by row, readPaddedWindows): the
/// pad, or, when it may pad along its second innermost dim (the width of a
/// register strip, whose pixels are the rows of the vectors it reads) but
/// need not, the choice between it and a copy without that padding, built
/// at the rewriter's insertion point. A strip away from the left and right
/// borders then reads its pixels with one mask per window row instead of
/// one per pixel. On an image of one to three rows under a 5x5 window,
/// every strip meets the top or the bottom border: PP-OCR's direction
/// classifier has seven such depthwise convolutions.
static Value buildRowUniformVersion(RewriterBase &rewriter, tensor::PadOp pad) {
  int64_t rank = pad.getResultType().getRank();
  if (rank < 2)
    return pad.getResult();
  unsigned width = rank - 2;
  SmallVector<OpFoldResult> low = pad.getMixedLowPad();
  SmallVector<OpFoldResult> high = pad.getMixedHighPad();
  // Without padding along another dim, the version would pad nothing: the
  // window read in place (materializePadding's other version).
  bool padsOther = false;
  for (int64_t d = 0; d < rank; ++d)
    padsOther |= d != static_cast<int64_t>(width) &&
                 (!isZeroInteger(low[d]) || !isZeroInteger(high[d]));
  if (!padsOther)
    return pad.getResult();
  // Without the width's padding the window is the source's width: a
  // static width of the source other than the window's static width means
  // the width always pads.
  RankedTensorType type = pad.getResultType();
  int64_t sourceWidth = pad.getSourceType().getDimSize(width);
  if (!ShapedType::isDynamic(sourceWidth) && !type.isDynamicDim(width) &&
      sourceWidth != type.getDimSize(width))
    return pad.getResult();
  SmallVector<Value> amounts;
  for (OpFoldResult amount : {low[width], high[width]}) {
    std::optional<int64_t> constant = getConstantIntValue(amount);
    if (constant && *constant != 0)
      return pad.getResult();
    if (!constant)
      amounts.push_back(cast<Value>(amount));
  }
  if (amounts.empty())
    return pad.getResult();
  Location loc = pad.getLoc();
  Value zero;
  Value inside;
  for (Value amount : amounts) {
    if (!zero)
      zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value isZero = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, amount, zero);
    inside =
        inside
            ? arith::AndIOp::create(rewriter, loc, inside, isZero).getResult()
            : isZero;
  }
  auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, inside,
                                /*withElseRegion=*/true);
  ifOp->setAttr(kRowUniformVersion, rewriter.getUnitAttr());
  rewriter.setInsertionPointToStart(ifOp.thenBlock());
  low[width] = rewriter.getIndexAttr(0);
  high[width] = rewriter.getIndexAttr(0);
  auto rowsOnly = cast<tensor::PadOp>(rewriter.clone(*pad));
  SmallVector<int64_t> staticLow, staticHigh;
  SmallVector<Value> dynamicLow, dynamicHigh;
  dispatchIndexOpFoldResults(low, dynamicLow, staticLow);
  dispatchIndexOpFoldResults(high, dynamicHigh, staticHigh);
  rewriter.modifyOpInPlace(rowsOnly, [&] {
    rowsOnly.getLowMutable().assign(dynamicLow);
    rowsOnly.getHighMutable().assign(dynamicHigh);
    rowsOnly.setStaticLow(staticLow);
    rowsOnly.setStaticHigh(staticHigh);
    rowsOnly.getResult().setType(tensor::PadOp::inferResultType(
        pad.getSourceType(), staticLow, staticHigh));
  });
  Value rows = rowsOnly.getResult();
  if (rows.getType() != type)
    rows = tensor::CastOp::create(rewriter, loc, type, rows);
  scf::YieldOp::create(rewriter, loc, rows);
  rewriter.setInsertionPointToStart(ifOp.elseBlock());
  auto yield = scf::YieldOp::create(rewriter, loc, pad.getResult());
  rewriter.moveOpBefore(pad, yield);
  rewriter.setInsertionPointAfter(ifOp);
  return ifOp.getResult(0);
}

void kiln::materializePadding(RewriterBase &rewriter, func::FuncOp func,
                              bool readRowsInPlace) {
  materializeGenerates(rewriter, func);
  SmallVector<tensor::PadOp> pads;
  func.walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  for (tensor::PadOp pad : pads) {
    Value padding = pad.getConstantPaddingValue();
    if (!padding || pad.getNofold())
      continue;
    bool deferred = readRowsInPlace && getRowPaddingValue(pad);
    ReifiedRankedShapedTypeDims shapes;
    rewriter.setInsertionPoint(pad);
    if (!deferred && failed(reifyResultShapes(rewriter, pad, shapes)))
      continue;
    // Tiles away from the image's borders read the image in place; only
    // the others make a padded tile, or read rows (readPaddedWindows).
    Location loc = pad.getLoc();
    RankedTensorType type = pad.getResultType();
    Value padsNothing = buildPadsNothing(rewriter, pad);
    if (!padsNothing) {
      if (!deferred) {
        rewriter.replaceOp(
            pad, buildPaddedTile(rewriter, pad, padding, shapes.front()));
        continue;
      }
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          pad->getUses(), [](OpOperand &use) { return &use; });
      rewriter.setInsertionPointAfter(pad);
      Value padded = buildRowUniformVersion(rewriter, pad);
      for (OpOperand *use : uses)
        rewriter.modifyOpInPlace(use->getOwner(), [&] { use->set(padded); });
      continue;
    }
    auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{type}, padsNothing,
                                  /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(ifOp.thenBlock());
    Value inPlace =
        tensor::CastOp::create(rewriter, loc, type, pad.getSource());
    scf::YieldOp::create(rewriter, loc, inPlace);
    rewriter.setInsertionPointToStart(ifOp.elseBlock());
    if (!deferred) {
      scf::YieldOp::create(
          rewriter, loc,
          buildPaddedTile(rewriter, pad, padding, shapes.front()));
      rewriter.replaceOp(pad, ifOp.getResults());
      continue;
    }
    SmallVector<OpOperand *> uses = llvm::map_to_vector(
        pad->getUses(), [](OpOperand &use) { return &use; });
    Value padded = buildRowUniformVersion(rewriter, pad);
    auto yield = scf::YieldOp::create(rewriter, loc, padded);
    if (padded == pad.getResult())
      rewriter.moveOpBefore(pad, yield);
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(ifOp.getResult(0)); });
  }
}

/// Whether `value` is, through casts and the branches of scf.if ops, the
/// result of a tensor.pad.
static bool reachesPadding(Value value) {
  if (auto cast = value.getDefiningOp<tensor::CastOp>())
    value = cast.getSource();
  if (value.getDefiningOp<tensor::PadOp>())
    return true;
  auto ifOp = value.getDefiningOp<scf::IfOp>();
  if (!ifOp || !ifOp.elseBlock())
    return false;
  unsigned result = cast<OpResult>(value).getResultNumber();
  return reachesPadding(ifOp.thenYield().getOperand(result)) ||
         reachesPadding(ifOp.elseYield().getOperand(result));
}

/// The op of `ifOp`'s block that holds every use of its one result, when
/// `ifOp` chooses between a window read in place and a padded one (both
/// computed without side effects) and that op yields no tensors: its
/// versions per branch then hand their results on in registers.
static Operation *getVersionedScope(scf::IfOp ifOp) {
  if (ifOp->getNumResults() != 1 || !ifOp.elseBlock() ||
      !isa<RankedTensorType>(ifOp.getResult(0).getType()) ||
      !isMemoryEffectFree(ifOp) || !reachesPadding(ifOp.getResult(0)))
    return nullptr;
  Block *block = ifOp->getBlock();
  Operation *scope = nullptr;
  for (Operation *user : ifOp->getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || (scope && ancestor != scope))
      return nullptr;
    scope = ancestor;
  }
  if (!scope || scope->hasTrait<OpTrait::IsTerminator>() ||
      scope->getNumResults() == 0 ||
      llvm::any_of(scope->getResultTypes(),
                   [](Type type) { return isa<TensorType>(type); }))
    return nullptr;
  return scope;
}

void kiln::versionOverIf(RewriterBase &rewriter, scf::IfOp ifOp,
                         Operation *op) {
  Location loc = ifOp.getLoc();
  rewriter.setInsertionPoint(op);
  auto versions = scf::IfOp::create(rewriter, loc, op->getResultTypes(),
                                    ifOp.getCondition(),
                                    /*withElseRegion=*/true);
  for (auto [from, to] : {std::pair(ifOp.thenBlock(), versions.thenBlock()),
                          std::pair(ifOp.elseBlock(), versions.elseBlock())}) {
    // An scf.if with results is built with empty blocks.
    rewriter.setInsertionPointToEnd(to);
    IRMapping mapping;
    for (Operation &branchOp : from->without_terminator())
      rewriter.clone(branchOp, mapping);
    mapping.map(ifOp.getResult(0),
                mapping.lookupOrDefault(
                    cast<scf::YieldOp>(from->getTerminator()).getOperand(0)));
    Operation *version = rewriter.clone(*op, mapping);
    scf::YieldOp::create(rewriter, loc, version->getResults());
  }
  rewriter.replaceOp(op, versions.getResults());
}

namespace {
/// A read of a padded tensor, padded along its outer dims only, is a read
/// of each of the vector's rows from the source: a row whose position lies
/// in the padding (or past the source) is a masked read that touches no
/// memory and yields the padding value, at an index clamped into the
/// source.
///
///   %p = tensor.pad %src low[0, %l, 0] high[...] { yield %cst }
///   %v = vector.transfer_read %p[%i, %j, %k], %cst : ..., vector<2x16xf32>
/// ->
///   row r (0, 1): in = 0 <= %j + r - %l < dim(%src, 1)
///     vector.transfer_read %src[%i, clamp(%j + r - %l), %k], %cst,
///         splat(in) {in_bounds = [true]} : ..., vector<16xf32>
struct ReadPaddedRows : public OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    Value base = read.getBase();
    if (auto cast = base.getDefiningOp<tensor::CastOp>())
      base = cast.getSource();
    auto pad = base.getDefiningOp<tensor::PadOp>();
    if (!pad || read.getMask() || !read.getPermutationMap().isMinorIdentity())
      return failure();
    Value padding = getRowPaddingValue(pad);
    VectorType type = read.getVectorType();
    int64_t rank = pad.getResultType().getRank();
    int64_t vectorRank = type.getRank();
    if (!padding || vectorRank == 0 || type.isScalable() ||
        !read.isDimInBounds(vectorRank - 1))
      return failure();
    Location loc = read.getLoc();
    // A constant yielded from inside the pad's body is used outside it.
    if (pad.getRegion().isAncestor(padding.getParentRegion()))
      padding = rewriter.clone(*padding.getDefiningOp())->getResult(0);
    Value source = pad.getSource();
    SmallVector<OpFoldResult> low = pad.getMixedLowPad();
    SmallVector<OpFoldResult> high = pad.getMixedHighPad();
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, source);
    int64_t first = rank - vectorRank;
    int64_t width = type.getShape().back();
    auto rowType = VectorType::get({width}, type.getElementType());
    auto maskType = VectorType::get({width}, rewriter.getI1Type());
    AffineMap rowMap =
        AffineMap::getMinorIdentityMap(rank, 1, rewriter.getContext());
    ArrayAttr inBounds = rewriter.getBoolArrayAttr({true});
    AffineExpr index, offset;
    bindSymbols(rewriter.getContext(), index, offset);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    // Where the read starts in the source, dim by dim.
    SmallVector<Value> starts;
    for (int64_t d = 0; d < rank; ++d)
      starts.push_back(affine::makeComposedAffineApply(
          rewriter, loc, index - offset, {read.getIndices()[d], low[d]}));
    // Whether index `at` of dim `d` lies in the source, and `at` clamped
    // into it (an index that a masked read may hold).
    auto clampIntoSource = [&](int64_t d, Value at) {
      Value size = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
      Value last =
          affine::makeComposedAffineApply(rewriter, loc, index - 1, {size});
      // One statement each: the order of the ops must not be the order in
      // which a compiler evaluates arguments.
      Value notBefore = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, at, zero);
      Value notPast = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, at, size);
      Value inside = arith::AndIOp::create(rewriter, loc, notBefore, notPast);
      Value bounded = arith::MinSIOp::create(rewriter, loc, at, last);
      Value clamped = arith::MaxSIOp::create(rewriter, loc, bounded, zero);
      return std::pair(inside, clamped);
    };
    auto mayLeaveSource = [&](int64_t d) {
      return !isZeroInteger(low[d]) || !isZeroInteger(high[d]) ||
             (d >= first && !read.isDimInBounds(d - first));
    };
    auto both = [&](Value a, Value b) -> Value {
      if (!a || !b)
        return a ? a : b;
      return arith::AndIOp::create(rewriter, loc, a, b);
    };
    // The dims the vector does not span: one index for every row.
    Value uniformIn;
    SmallVector<Value> indices(starts);
    for (int64_t d = 0; d < first; ++d) {
      if (!mayLeaveSource(d))
        continue;
      auto [inside, clamped] = clampIntoSource(d, starts[d]);
      uniformIn = both(uniformIn, inside);
      indices[d] = clamped;
    }
    Value result = vector::BroadcastOp::create(rewriter, loc, type, padding);
    ArrayRef<int64_t> rows = type.getShape().drop_back();
    SmallVector<int64_t> strides = computeStrides(rows);
    int64_t count = computeProduct(rows);
    for (int64_t linear = 0; linear < count; ++linear) {
      SmallVector<int64_t> position = delinearize(linear, strides);
      Value in = uniformIn;
      for (int64_t d = first; d + 1 < rank; ++d) {
        Value at = affine::makeComposedAffineApply(
            rewriter, loc, index + position[d - first], {starts[d]});
        indices[d] = at;
        if (!mayLeaveSource(d))
          continue;
        auto [inside, clamped] = clampIntoSource(d, at);
        in = both(in, inside);
        indices[d] = clamped;
      }
      Value mask = in ? vector::BroadcastOp::create(rewriter, loc, maskType, in)
                      : Value();
      Value row = vector::TransferReadOp::create(rewriter, loc, rowType, source,
                                                 indices, rowMap, padding, mask,
                                                 inBounds);
      result = rows.empty() ? row
                            : vector::InsertOp::create(rewriter, loc, row,
                                                       result, position)
                                  .getResult();
    }
    rewriter.replaceOp(read, result);
    return success();
  }
};
} // namespace

LogicalResult kiln::readPaddedWindows(RewriterBase &rewriter,
                                      func::FuncOp func) {
  // Outermost first: versioning a scope copies the scf.if ops nested in
  // the branch it takes, which are versioned in turn.
  while (true) {
    scf::IfOp ifOp;
    Operation *scope = nullptr;
    func.walk<WalkOrder::PreOrder>([&](scf::IfOp candidate) {
      scope = getVersionedScope(candidate);
      if (!scope)
        return WalkResult::advance();
      ifOp = candidate;
      return WalkResult::interrupt();
    });
    if (!ifOp)
      break;
    versionOverIf(rewriter, ifOp, scope);
    rewriter.eraseOp(ifOp);
  }
  // A row-uniform version no scope could be versioned for is its padded
  // window again, which rows can be read from as before.
  SmallVector<scf::IfOp> unversioned;
  func.walk([&](scf::IfOp ifOp) {
    if (ifOp->hasAttr(kRowUniformVersion))
      unversioned.push_back(ifOp);
  });
  for (scf::IfOp ifOp : unversioned) {
    Value padded = ifOp.elseYield().getOperand(0);
    for (Operation &op :
         llvm::make_early_inc_range(ifOp.elseBlock()->without_terminator()))
      rewriter.moveOpBefore(&op, ifOp);
    rewriter.replaceOp(ifOp, padded);
  }
  RewritePatternSet patterns(func.getContext());
  patterns.add<ReadPaddedRows>(func.getContext());
  if (failed(applyPatternsGreedily(func, std::move(patterns))))
    return failure();
  // What is still read as a whole (a window no scope could be versioned
  // for, a read the rows cannot make) becomes a padded tile.
  SmallVector<tensor::PadOp> pads;
  func.walk([&](tensor::PadOp pad) { pads.push_back(pad); });
  for (tensor::PadOp pad : pads) {
    if (pad->use_empty()) {
      rewriter.eraseOp(pad);
      continue;
    }
    Value padding = pad.getConstantPaddingValue();
    ReifiedRankedShapedTypeDims shapes;
    rewriter.setInsertionPoint(pad);
    if (!padding || pad.getNofold() ||
        failed(reifyResultShapes(rewriter, pad, shapes)))
      continue;
    rewriter.replaceOp(pad,
                       buildPaddedTile(rewriter, pad, padding, shapes.front()));
  }
  return success();
}
