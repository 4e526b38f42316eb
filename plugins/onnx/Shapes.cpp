//===- Shapes.cpp - ONNX's ops that move data without arithmetic ----------===//
//
// Reshape, Flatten, Squeeze and Unsqueeze as collapse and expand (a
// tensor.reshape where a dynamic dim regroups); Transpose; Shape and
// Size; Expand, Tile and ConstantOfShape as broadcasts and fills; Dropout
// at inference. Shapes come from ONNX's shape inference where it knows
// them and from the shape inputs where it does not.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// Element `i` of the 1-D integer tensor `values`, as an index.
static Value extractIndex(OpBuilder &b, Location loc, Value values, int64_t i) {
  Value position = arith::ConstantIndexOp::create(b, loc, i);
  Value element = tensor::ExtractOp::create(b, loc, values, position);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
}

/// The sizes of `type` as values: static ones as constants, dynamic ones
/// from `dynamicSize(d)`.
static SmallVector<OpFoldResult>
getMixedSizes(OpBuilder &b, RankedTensorType type,
              function_ref<Value(int64_t)> dynamicSize) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d) ? OpFoldResult(dynamicSize(d))
                                         : b.getIndexAttr(type.getDimSize(d)));
  return sizes;
}

//===----------------------------------------------------------------------===//
// Reshape, Flatten, Squeeze, Unsqueeze
//===----------------------------------------------------------------------===//

static LogicalResult convertReshape(NodeConverter &node,
                                    SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"allowzero"})))
    return failure();
  FailureOr<int64_t> allowZero = node.getInt("allowzero", 0);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(allowZero) || failed(type) || failed(inputType))
    return failure();
  // Sizes known on both sides must hold the same elements (ONNX's shape
  // inference lets a declared output shape stand).
  if (inputType->hasStaticShape() && type->hasStaticShape() &&
      inputType->getNumElements() != type->getNumElements())
    return node.error() << "reshapes " << *inputType << " ("
                        << inputType->getNumElements() << " elements) to "
                        << *type << " (" << type->getNumElements()
                        << " elements)";
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  if (Value reshaped = reshapeTo(b, loc, input, *type)) {
    results.push_back(reshaped);
    return success();
  }
  // A dynamic dim regroups: the shape at run time, 0 meaning "the input's
  // dim" (unless allowzero) and -1 "what the other dims leave".
  Value shape = node.input(1);
  int64_t rank = type->getRank();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value minusOne = arith::ConstantIndexOp::create(b, loc, -1);
  SmallVector<Value> sizes;
  Value minusOnes = zero;
  for (int64_t d = 0; d < rank; ++d) {
    if (!type->isDynamicDim(d)) {
      sizes.push_back(
          arith::ConstantIndexOp::create(b, loc, type->getDimSize(d)));
      continue;
    }
    Value size = extractIndex(b, loc, shape, d);
    // -1 (at most once), 0, or a size.
    node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size,
                                       minusOne),
                 "element " + Twine(d) + " of its shape (input 1) is {0}",
                 {size});
    minusOnes = arith::AddIOp::create(
        b, loc, minusOnes,
        arith::SelectOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                  minusOne),
            arith::ConstantIndexOp::create(b, loc, 1), zero));
    if (!*allowZero && d < inputType->getRank()) {
      Value isZero =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero);
      size = arith::SelectOp::create(b, loc, isZero,
                                     getDimSize(b, loc, input, d), size);
    }
    sizes.push_back(size);
  }
  node.require(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                     minusOnes,
                                     arith::ConstantIndexOp::create(b, loc, 1)),
               "its shape (input 1) holds -1 {0} times; at most one size can "
               "be inferred",
               {minusOnes});
  Value total = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < inputType->getRank(); ++d)
    total = arith::MulIOp::create(b, loc, total, getDimSize(b, loc, input, d));
  SmallVector<Value> resolved(sizes);
  for (int64_t d = 0; d < rank; ++d) {
    if (!type->isDynamicDim(d))
      continue;
    // At most one dim is -1, so the others multiply to what it leaves.
    Value others = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t e = 0; e < rank; ++e)
      if (e != d)
        others = arith::MulIOp::create(b, loc, others, sizes[e]);
    Value isMinusOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                             sizes[d], minusOne);
    node.require(
        arith::OrIOp::create(
            b, loc,
            arith::XOrIOp::create(b, loc, isMinusOne,
                                  arith::ConstantIntOp::create(b, loc, 1, 1)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, others,
                                  zero)),
        "its shape (input 1) has a -1 at " + Twine(d) +
            " and sizes of 0 beside it: the size it stands for is unknown",
        {});
    // Computed for every dim, used for the -1: a 0 among the others must
    // not divide by zero where there is no -1 (a shape [0, 5]).
    Value divisor = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, others, zero),
        arith::ConstantIndexOp::create(b, loc, 1), others);
    Value quotient = arith::DivUIOp::create(b, loc, total, divisor);
    resolved[d] =
        arith::SelectOp::create(b, loc, isMinusOne, quotient, sizes[d]);
  }
  sizes = resolved;
  Value shapeTensor = buildShapeTensor(b, loc, sizes);
  results.push_back(
      tensor::ReshapeOp::create(b, loc, *type, input, shapeTensor));
  return success();
}

/// Flatten, Squeeze and Unsqueeze: the result's shape is the input's with
/// dims merged or unit dims removed or added, so the inferred type says
/// everything.
static LogicalResult convertRegroup(NodeConverter &node,
                                    SmallVectorImpl<Value> &results) {
  StringRef op = node.node.getOpType();
  if (failed(node.checkAttributes(op == "Flatten" ? ArrayRef<StringRef>{"axis"}
                                                  : ArrayRef<StringRef>{})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  // Constant axes must say what the result type says: in range, each
  // once, and (Squeeze) on dims of size 1. ONNX's shape inference does not
  // look at their range, so a declared output shape let axis 5 of a rank-2
  // tensor through.
  if (op != "Flatten" && node.hasInput(1)) {
    if (std::optional<SmallVector<int64_t>> axes =
            matchConstantInts(node.input(1))) {
      bool squeeze = op == "Squeeze";
      int64_t rank = squeeze ? inputType->getRank() : type->getRank();
      llvm::SmallDenseSet<int64_t> seen;
      for (int64_t axis : *axes) {
        if (axis < -rank || axis >= rank)
          return node.error() << "axis " << axis
                              << " (input 1) is out of range for rank " << rank;
        int64_t normalized = axis < 0 ? axis + rank : axis;
        if (!seen.insert(normalized).second)
          return node.error() << "axis " << axis << " (input 1) is given twice";
        if (squeeze && !inputType->isDynamicDim(normalized) &&
            inputType->getDimSize(normalized) != 1)
          return node.error() << "squeezes axis " << axis << " of "
                              << *inputType << ", whose size is not 1";
      }
      int64_t expected =
          inputType->getRank() + (squeeze ? -1 : 1) * int64_t(seen.size());
      if (type->getRank() != expected)
        return node.error() << "its result " << *type << " is not of rank "
                            << expected << ", what " << axes->size()
                            << " axes (input 1) leave of " << *inputType;
    }
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  if (op == "Flatten") {
    FailureOr<int64_t> axis = node.getInt("axis", 1);
    if (failed(axis))
      return failure();
    int64_t rank = inputType->getRank();
    if (*axis < -rank || *axis > rank)
      return node.error() << "attribute 'axis' " << *axis
                          << " is out of range for rank " << rank,
             failure();
    int64_t split = *axis < 0 ? *axis + rank : *axis;
    // [0, split) and [split, rank), an empty side a unit dim.
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t d = 0; d < rank; ++d)
      groups[d < split ? 0 : 1].push_back(d);
    if (!groups[0].empty() && !groups[1].empty()) {
      results.push_back(tensor::CollapseShapeOp::create(b, loc, *type,
                                                        node.input(0), groups));
      return success();
    }
  }
  Value reshaped = reshapeTo(b, loc, node.input(0), *type);
  if (!reshaped) {
    // Only Flatten at axis 0 or rank gets here: through one dim.
    auto flat =
        RankedTensorType::get({ShapedType::kDynamic}, type->getElementType());
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < inputType->getRank(); ++d)
      all[0].push_back(d);
    Value collapsed =
        tensor::CollapseShapeOp::create(b, loc, flat, node.input(0), all);
    reshaped = tensor::ExpandShapeOp::create(
        b, loc, *type, collapsed, SmallVector<ReassociationIndices>{{0, 1}});
  }
  results.push_back(reshaped);
  return success();
}

//===----------------------------------------------------------------------===//
// Transpose, Shape, Size
//===----------------------------------------------------------------------===//

static LogicalResult convertTranspose(NodeConverter &node,
                                      SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"perm"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  auto perm = node.getInts("perm");
  if (failed(type) || failed(inputType) || failed(perm))
    return failure();
  int64_t rank = inputType->getRank();
  SmallVector<int64_t> permutation;
  if (*perm)
    permutation = **perm;
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      permutation.push_back(d);
  SmallVector<bool> seen(rank, false);
  for (int64_t d : permutation) {
    if (d < 0 || d >= rank || seen[d] ||
        static_cast<int64_t>(permutation.size()) != rank)
      return node.error() << "attribute 'perm' is not a permutation of " << rank
                          << " dims",
             failure();
    seen[d] = true;
  }
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  Value init = tensor::EmptyOp::create(
      b, loc,
      getMixedSizes(
          b, *type,
          [&](int64_t d) { return getDimSize(b, loc, input, permutation[d]); }),
      type->getElementType());
  results.push_back(
      linalg::TransposeOp::create(b, loc, input, init, permutation)
          .getResult()[0]);
  return success();
}

static LogicalResult convertShape(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"start", "end"})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(inputType))
    return failure();
  int64_t rank = inputType->getRank();
  FailureOr<int64_t> start = node.getInt("start", 0);
  FailureOr<int64_t> end = node.getInt("end", rank);
  if (failed(start) || failed(end))
    return failure();
  // Out-of-range bounds clamp.
  auto clampBound = [&](int64_t bound) {
    return std::clamp<int64_t>(bound < 0 ? bound + rank : bound, 0, rank);
  };
  int64_t first = clampBound(*start), last = clampBound(*end);
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  SmallVector<Value> sizes;
  for (int64_t d = first; d < last; ++d)
    sizes.push_back(getDimSize(b, loc, node.input(0), d));
  if (sizes.empty()) {
    auto type = RankedTensorType::get({0}, b.getI64Type());
    results.push_back(tensor::EmptyOp::create(b, loc, type.getShape(),
                                              type.getElementType()));
    return success();
  }
  results.push_back(buildShapeTensor(b, loc, sizes));
  return success();
}

static LogicalResult convertSize(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(inputType))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < inputType->getRank(); ++d)
    count = arith::MulIOp::create(b, loc, count,
                                  getDimSize(b, loc, node.input(0), d));
  Value element = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  results.push_back(tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, b.getI64Type()), element));
  return success();
}

//===----------------------------------------------------------------------===//
// Expand, Tile, ConstantOfShape, Dropout
//===----------------------------------------------------------------------===//

static LogicalResult convertExpand(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0), shape = node.input(1);
  int64_t rank = type->getRank();
  int64_t offset = rank - inputType->getRank();
  int64_t shapeOffset =
      rank - cast<RankedTensorType>(shape.getType()).getDimSize(0);
  // A dynamic result dim is the shape's value, or the input's dim where
  // the shape says 1.
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value init = tensor::EmptyOp::create(
      b, loc,
      getMixedSizes(b, *type,
                    [&](int64_t d) -> Value {
                      Value fromShape =
                          d >= shapeOffset
                              ? extractIndex(b, loc, shape, d - shapeOffset)
                              : one;
                      if (d < offset)
                        return fromShape;
                      Value fromInput = getDimSize(b, loc, input, d - offset);
                      return arith::MaxUIOp::create(b, loc, fromShape,
                                                    fromInput);
                    }),
      type->getElementType());
  results.push_back(buildCopy(b, loc, *type, input, init,
                              getBroadcastMap(*inputType, *type)));
  return success();
}

static LogicalResult convertTile(NodeConverter &node,
                                 SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(type) || failed(inputType))
    return failure();
  int64_t rank = inputType->getRank();
  // Repeats known at compile time where they are constant.
  std::optional<SmallVector<int64_t>> repeats =
      matchConstantInts(node.input(1));
  if (repeats && static_cast<int64_t>(repeats->size()) != rank)
    return node.error() << "input 1 (repeats) has " << repeats->size()
                        << " values for rank " << rank,
           failure();
  if (repeats && llvm::any_of(*repeats, [](int64_t r) { return r < 0; }))
    return node.error() << "input 1 (repeats) has a negative value", failure();
  // Broadcast to [r0, d0, r1, d1, ...], then merge each pair.
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value input = node.input(0);
  SmallVector<int64_t> pairShape;
  SmallVector<OpFoldResult> pairSizes;
  SmallVector<AffineExpr> inputExprs;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < rank; ++d) {
    pairShape.append({repeats ? (*repeats)[d] : ShapedType::kDynamic,
                      inputType->getDimSize(d)});
    pairSizes.push_back(
        repeats ? OpFoldResult(b.getIndexAttr((*repeats)[d]))
                : OpFoldResult(extractIndex(b, loc, node.input(1), d)));
    pairSizes.push_back(inputType->isDynamicDim(d)
                            ? OpFoldResult(getDimSize(b, loc, input, d))
                            : b.getIndexAttr(inputType->getDimSize(d)));
    inputExprs.push_back(b.getAffineDimExpr(2 * d + 1));
    groups.push_back({2 * d, 2 * d + 1});
  }
  auto pairType = RankedTensorType::get(pairShape, type->getElementType());
  Value init =
      tensor::EmptyOp::create(b, loc, pairSizes, type->getElementType());
  Value pairs =
      buildCopy(b, loc, pairType, input, init,
                AffineMap::get(2 * rank, 0, inputExprs, b.getContext()));
  results.push_back(tensor::CollapseShapeOp::create(b, loc, pairs, groups));
  return success();
}

static LogicalResult convertConstantOfShape(NodeConverter &node,
                                            SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"value"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(type))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Type element = type->getElementType();
  TypedAttr fill = b.getZeroAttr(element);
  if (Attribute value = node.getAttribute("value")) {
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!dense || dense.getNumElements() != 1)
      return node.error() << "attribute 'value' must be a one-element tensor",
             failure();
    fill = dense.getElementType() == element
               ? cast<TypedAttr>(*dense.getValues<Attribute>().begin())
               : cast<TypedAttr>(
                     *dense.bitcast(element).getValues<Attribute>().begin());
  }
  Value shape = node.input(0);
  Value init = tensor::EmptyOp::create(
      b, loc,
      getMixedSizes(b, *type,
                    [&](int64_t d) { return extractIndex(b, loc, shape, d); }),
      element);
  Value scalar = arith::ConstantOp::create(b, loc, fill);
  results.push_back(linalg::FillOp::create(b, loc, scalar, init).getResult(0));
  return success();
}

static LogicalResult convertDropout(NodeConverter &node,
                                    SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"seed"})))
    return failure();
  // Inference: the input unchanged, and a mask of all true. Training mode
  // (input 2) would drop at random.
  if (node.hasInput(2)) {
    std::optional<SmallVector<int64_t>> training =
        matchConstantInts(node.input(2));
    if (!training || training->size() != 1 || (*training)[0] != 0)
      return node.error() << "training mode (input 2 true or not constant) "
                             "is not supported: Kiln compiles inference",
             failure();
  }
  results.push_back(node.input(0));
  if (node.getNumResults() > 1) {
    FailureOr<RankedTensorType> maskType = node.getRankedResultType(1);
    if (failed(maskType))
      return failure();
    OpBuilder &b = node.builder;
    Location loc = node.getLoc();
    Value init = tensor::EmptyOp::create(
        b, loc,
        getMixedSizes(
            b, *maskType,
            [&](int64_t d) { return getDimSize(b, loc, node.input(0), d); }),
        maskType->getElementType());
    Value yes = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    results.push_back(linalg::FillOp::create(b, loc, yes, init).getResult(0));
  }
  return success();
}

/// DepthToSpace and SpaceToDepth: a reshape into blocks, a transpose, a
/// reshape back.
static LogicalResult convertBlocks(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  bool toSpace = node.node.getOpType() == "DepthToSpace";
  if (failed(node.checkAttributes(toSpace
                                      ? ArrayRef<StringRef>{"blocksize", "mode"}
                                      : ArrayRef<StringRef>{"blocksize"})))
    return failure();
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<int64_t> block = node.getInt("blocksize", 0);
  FailureOr<std::string> mode = node.getString("mode", "DCR");
  if (failed(type) || failed(inputType) || failed(block) || failed(mode))
    return failure();
  if (inputType->getRank() != 4 || !inputType->hasStaticShape())
    return node.error() << "it needs a static 4-D input", failure();
  if (*mode != "DCR" && *mode != "CRD")
    return node.error() << "mode '" << *mode << "' is unknown", failure();
  int64_t n = inputType->getDimSize(0), c = inputType->getDimSize(1),
          h = inputType->getDimSize(2), w = inputType->getDimSize(3),
          b = *block;
  if (b < 1 || (toSpace ? c % (b * b) : h % b || w % b))
    return node.error() << "blocksize " << b << " does not divide the input",
           failure();
  SmallVector<int64_t> blocked, permutation;
  if (toSpace && *mode == "DCR") {
    blocked = {n, b, b, c / (b * b), h, w};
    permutation = {0, 3, 4, 1, 5, 2};
  } else if (toSpace) {
    blocked = {n, c / (b * b), b, b, h, w};
    permutation = {0, 1, 4, 2, 5, 3};
  } else {
    blocked = {n, c, h / b, b, w / b, b};
    permutation = {0, 3, 5, 1, 2, 4};
  }
  OpBuilder &builder = node.builder;
  Location loc = node.getLoc();
  Type element = type->getElementType();
  Value split = reshapeTo(builder, loc, node.input(0),
                          RankedTensorType::get(blocked, element));
  SmallVector<int64_t> transposed;
  for (int64_t d : permutation)
    transposed.push_back(blocked[d]);
  Value init = tensor::EmptyOp::create(builder, loc, transposed, element);
  Value moved =
      linalg::TransposeOp::create(builder, loc, split, init, permutation)
          .getResult()[0];
  results.push_back(reshapeTo(builder, loc, moved, *type));
  return success();
}

void onnx_plugin::addShapeConverters(ConverterTable &table) {
  table["Reshape"] = {convertReshape};
  for (StringRef op : {"Flatten", "Squeeze", "Unsqueeze"})
    table[op] = {convertRegroup};
  table["Transpose"] = {convertTranspose};
  table["Shape"] = {convertShape};
  table["Size"] = {convertSize};
  table["Expand"] = {convertExpand};
  table["Tile"] = {convertTile};
  table["ConstantOfShape"] = {convertConstantOfShape};
  table["Dropout"] = {convertDropout};
  table["DepthToSpace"] = {convertBlocks};
  table["SpaceToDepth"] = {convertBlocks};
}
