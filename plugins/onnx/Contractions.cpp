//===- Contractions.cpp - MatMul and Gemm ---------------------------------===//
//
// MatMul (numpy's matmul: 1-D operands promoted, batch dimensions
// broadcast) and Gemm (transposed operands, alpha, beta, a broadcast C).
// Where the shapes allow, they become the named ops Kiln's codegen tiles
// best: linalg.matmul (a batch folded into the rows when only A has one),
// linalg.batch_matmul (equal batches), matmul with indexing maps for
// Gemm's transposes; other batch broadcasts a linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// A zero-filled tensor of `type` with the dynamic sizes `sizes`.
static Value createZeros(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<OpFoldResult> sizes) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
}

/// The size of dim `d` of `value`.
static OpFoldResult getSize(OpBuilder &b, Location loc, Value value,
                            int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return b.getIndexAttr(type.getDimSize(d));
  return tensor::DimOp::create(b, loc, value, d).getResult();
}

/// A linalg.generic computing `out[batch..., m, n] += a[..., m, k] *
/// b[..., k, n]` with numpy's broadcasting of the batch dims; `lhs` and
/// `rhs` are at least 2-D, `resultType` has their batch dims.
static Value buildBroadcastMatmul(OpBuilder &b, Location loc, Value lhs,
                                  Value rhs, RankedTensorType resultType) {
  MLIRContext *context = b.getContext();
  int64_t rank = resultType.getRank(); // batch..., m, n
  int64_t loops = rank + 1;            // ..., k
  auto operandMap = [&](Value operand, bool isLhs) {
    auto type = cast<RankedTensorType>(operand.getType());
    int64_t offset = rank - type.getRank();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d + 2 < type.getRank(); ++d) {
      bool broadcast =
          type.getDimSize(d) == 1 && resultType.getDimSize(d + offset) != 1;
      exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                                : getAffineDimExpr(d + offset, context));
    }
    AffineExpr m = getAffineDimExpr(rank - 2, context);
    AffineExpr n = getAffineDimExpr(rank - 1, context);
    AffineExpr k = getAffineDimExpr(rank, context);
    exprs.push_back(isLhs ? m : k);
    exprs.push_back(isLhs ? k : n);
    return AffineMap::get(loops, 0, exprs, context);
  };
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d) {
    if (!resultType.isDynamicDim(d)) {
      sizes.push_back(b.getIndexAttr(resultType.getDimSize(d)));
      continue;
    }
    Value source = d == rank - 1 ? rhs : lhs;
    auto sourceType = cast<RankedTensorType>(source.getType());
    int64_t sourceDim = d - (rank - sourceType.getRank());
    if (d < rank - 2 &&
        (sourceDim < 0 || sourceType.getDimSize(sourceDim) == 1)) {
      source = rhs;
      sourceType = cast<RankedTensorType>(rhs.getType());
      sourceDim = d - (rank - sourceType.getRank());
    }
    sizes.push_back(getSize(b, loc, source, sourceDim));
  }
  Value init = createZeros(b, loc, resultType, sizes);
  SmallVector<AffineMap> maps = {operandMap(lhs, true), operandMap(rhs, false)};
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(getAffineDimExpr(d, context));
  maps.push_back(AffineMap::get(loops, 0, outExprs, context));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  return linalg::GenericOp::create(
             b, loc, resultType, ValueRange{lhs, rhs}, init, maps, iterators,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value product, sum;
               if (isa<FloatType>(args[0].getType())) {
                 product = arith::MulFOp::create(nb, l, args[0], args[1]);
                 sum = arith::AddFOp::create(nb, l, args[2], product);
               } else {
                 product = arith::MulIOp::create(nb, l, args[0], args[1]);
                 sum = arith::AddIOp::create(nb, l, args[2], product);
               }
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

FailureOr<Value> onnx_plugin::buildMatMul(NodeConverter &node, Value lhs,
                                          Value rhs,
                                          RankedTensorType resultType) {
  auto lhsType = dyn_cast<RankedTensorType>(lhs.getType());
  auto rhsType = dyn_cast<RankedTensorType>(rhs.getType());
  if (!lhsType || !rhsType ||
      lhsType.getElementType() != rhsType.getElementType() ||
      lhsType.getRank() == 0 || rhsType.getRank() == 0)
    return node.error() << "operands must be ranked tensors of one element "
                           "type and rank 1 or more",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  // 1-D operands: a row for A, a column for B, dropped from the result.
  auto expand = [&](Value value, bool asRow) -> Value {
    auto type = cast<RankedTensorType>(value.getType());
    SmallVector<int64_t> shape =
        asRow ? SmallVector<int64_t>{1, type.getDimSize(0)}
              : SmallVector<int64_t>{type.getDimSize(0), 1};
    SmallVector<ReassociationIndices> groups = {{0, 1}};
    return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), value,
                                         groups);
  };
  bool lhsVector = lhsType.getRank() == 1, rhsVector = rhsType.getRank() == 1;
  if (lhsVector)
    lhs = expand(lhs, true);
  if (rhsVector)
    rhs = expand(rhs, false);
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  // The result with the promoted dims kept.
  SmallVector<int64_t> shape(resultType.getShape());
  if (lhsVector)
    shape.insert(shape.end() - (rhsVector ? 0 : 1), 1);
  if (rhsVector)
    shape.push_back(1);
  auto fullType = resultType.clone(shape);

  Value product;
  int64_t rank = lt.getRank();
  // Batch dims equal on both sides (no broadcast).
  bool sameBatch =
      rank == rt.getRank() && rank > 2 &&
      llvm::all_of(llvm::seq<int64_t>(0, rank - 2), [&](int64_t d) {
        return !lt.isDynamicDim(d) && lt.getDimSize(d) == rt.getDimSize(d);
      });
  if (lt.getRank() == 2 && rt.getRank() == 2) {
    Value init = createZeros(
        b, loc, fullType, {getSize(b, loc, lhs, 0), getSize(b, loc, rhs, 1)});
    product = linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs}, init)
                  .getResult(0);
  } else if (rt.getRank() == 2) {
    // A's batch dims folded into its rows: one matmul.
    SmallVector<ReassociationIndices> rows = {
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 1)), {rank - 1}};
    Value flat = tensor::CollapseShapeOp::create(b, loc, lhs, rows);
    auto flatType = RankedTensorType::get(
        {cast<RankedTensorType>(flat.getType()).getDimSize(0),
         fullType.getDimSize(rank - 1)},
        fullType.getElementType());
    Value init = createZeros(
        b, loc, flatType, {getSize(b, loc, flat, 0), getSize(b, loc, rhs, 1)});
    Value matmul = linalg::MatmulOp::create(b, loc, ValueRange{flat, rhs}, init)
                       .getResult(0);
    SmallVector<OpFoldResult> shape;
    for (int64_t d = 0; d + 1 < rank; ++d)
      shape.push_back(getSize(b, loc, lhs, d));
    shape.push_back(getSize(b, loc, rhs, 1));
    product =
        tensor::ExpandShapeOp::create(b, loc, fullType, matmul, rows, shape);
  } else if (sameBatch) {
    // Equal batches: one batch_matmul over their product.
    SmallVector<ReassociationIndices> groups = {
        llvm::to_vector(llvm::seq<int64_t>(0, rank - 2)),
        {rank - 2},
        {rank - 1}};
    Value left =
        rank == 3
            ? lhs
            : tensor::CollapseShapeOp::create(b, loc, lhs, groups).getResult();
    Value right =
        rank == 3
            ? rhs
            : tensor::CollapseShapeOp::create(b, loc, rhs, groups).getResult();
    auto leftType = cast<RankedTensorType>(left.getType());
    auto batchType = RankedTensorType::get({leftType.getDimSize(0),
                                            fullType.getDimSize(rank - 2),
                                            fullType.getDimSize(rank - 1)},
                                           fullType.getElementType());
    Value init =
        createZeros(b, loc, batchType,
                    {getSize(b, loc, left, 0), getSize(b, loc, left, 1),
                     getSize(b, loc, right, 2)});
    Value batched =
        linalg::BatchMatmulOp::create(b, loc, ValueRange{left, right}, init)
            .getResult(0);
    if (rank == 3) {
      product = batched;
    } else {
      SmallVector<OpFoldResult> shape;
      for (int64_t d = 0; d + 1 < rank; ++d)
        shape.push_back(getSize(b, loc, lhs, d));
      shape.push_back(getSize(b, loc, rhs, rank - 1));
      product = tensor::ExpandShapeOp::create(b, loc, fullType, batched, groups,
                                              shape);
    }
  } else {
    product = buildBroadcastMatmul(b, loc, lhs, rhs, fullType);
  }
  // Drop the promoted dims again.
  if (lhsVector || rhsVector) {
    SmallVector<ReassociationIndices> groups;
    int64_t rank = fullType.getRank();
    int64_t kept = resultType.getRank();
    if (kept == 0) {
      groups = {};
    } else {
      for (int64_t d = 0; d < kept; ++d)
        groups.push_back({d});
      for (int64_t d = kept; d < rank; ++d)
        groups.back().push_back(d);
    }
    product =
        tensor::CollapseShapeOp::create(b, loc, resultType, product, groups);
  }
  return product;
}

static LogicalResult convertMatMul(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(resultType))
    return failure();
  FailureOr<Value> product =
      buildMatMul(node, node.input(0), node.input(1), *resultType);
  if (failed(product))
    return failure();
  results.push_back(*product);
  return success();
}

static LogicalResult convertGemm(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"alpha", "beta", "transA", "transB"})))
    return failure();
  FailureOr<float> alpha = node.getFloat("alpha", 1.0f);
  FailureOr<float> beta = node.getFloat("beta", 1.0f);
  FailureOr<int64_t> transA = node.getInt("transA", 0);
  FailureOr<int64_t> transB = node.getInt("transB", 0);
  FailureOr<RankedTensorType> resultType = node.getRankedResultType(0);
  if (failed(alpha) || failed(beta) || failed(transA) || failed(transB) ||
      failed(resultType))
    return failure();
  FailureOr<RankedTensorType> aType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> bType = node.getRankedInputType(1);
  if (failed(aType) || failed(bType) || aType->getRank() != 2 ||
      bType->getRank() != 2)
    return node.error() << "A and B must be 2-D", failure();
  Type element = resultType->getElementType();
  if (!isa<FloatType>(element))
    return node.error() << "element type " << element
                        << " is not supported (floats only)",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value lhs = node.input(0), rhs = node.input(1);
  MLIRContext *context = b.getContext();
  AffineExpr m = getAffineDimExpr(0, context), n = getAffineDimExpr(1, context),
             k = getAffineDimExpr(2, context);
  SmallVector<AffineMap> maps = {
      AffineMap::get(3, 0,
                     *transA ? ArrayRef<AffineExpr>{k, m}
                             : ArrayRef<AffineExpr>{m, k},
                     context),
      AffineMap::get(3, 0,
                     *transB ? ArrayRef<AffineExpr>{n, k}
                             : ArrayRef<AffineExpr>{k, n},
                     context),
      AffineMap::get(3, 0, {m, n}, context)};
  Value init = createZeros(b, loc, *resultType,
                           {getSize(b, loc, lhs, *transA ? 1 : 0),
                            getSize(b, loc, rhs, *transB ? 0 : 1)});
  auto matmul = linalg::MatmulOp::create(b, loc, ValueRange{lhs, rhs}, init);
  matmul.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
  Value product = matmul.getResult(0);
  bool hasC = node.hasInput(2) && *beta != 0.0f;
  if (*alpha == 1.0f && !hasC) {
    results.push_back(product);
    return success();
  }
  SmallVector<Value> inputs = {product};
  if (hasC) {
    if (failed(node.getRankedInputType(2)))
      return failure();
    inputs.push_back(node.input(2));
  }
  float alphaValue = *alpha, betaValue = *beta;
  results.push_back(buildElementwise(
      b, loc, *resultType, inputs,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        auto scale = [&](Value value, float factor) -> Value {
          if (factor == 1.0f)
            return value;
          Value constant = arith::ConstantOp::create(
              nb, l, nb.getFloatAttr(element, factor));
          return arith::MulFOp::create(nb, l, value, constant);
        };
        Value y = scale(args[0], alphaValue);
        if (args.size() > 1)
          y = arith::AddFOp::create(nb, l, y, scale(args[1], betaValue));
        return y;
      }));
  return success();
}

void onnx_plugin::addContractionConverters(ConverterTable &table) {
  table["MatMul"] = {convertMatMul};
  table["Gemm"] = {convertGemm};
}
