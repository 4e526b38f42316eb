//===- NodeConverter.cpp - What a converter sees of a node ----------------===//

#include "Converters.h"

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/RuntimeChecks/Checks.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

Type onnx_plugin::convertElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    if (!integer.isSignless())
      return IntegerType::get(type.getContext(), integer.getWidth());
  return type;
}

Type onnx_plugin::convertType(Type type) {
  if (auto tensor = dyn_cast<TensorType>(type))
    return tensor.clone(convertElementType(tensor.getElementType()));
  return convertElementType(type);
}

InFlightDiagnostic NodeConverter::error() {
  InFlightDiagnostic diagnostic = node.emitError();
  diagnostic << describeNode(node) << ": ";
  return diagnostic;
}

bool NodeConverter::hasInput(unsigned i) const {
  return i < getNumInputs() && !isa<NoneType>(input(i).getType());
}

Type NodeConverter::getInputElementType(unsigned i) const {
  return getElementTypeOrSelf(onnxInputTypes[i]);
}

bool NodeConverter::isUnsignedInput(unsigned i) const {
  return getInputElementType(i).isUnsignedInteger();
}

Type NodeConverter::getResultType(unsigned i) const {
  return convertType(node.getResult(i).getType());
}

FailureOr<RankedTensorType> NodeConverter::getRankedResultType(unsigned i) {
  if (auto type = dyn_cast<RankedTensorType>(getResultType(i)))
    return type;
  return error() << "the rank of output " << i
                 << " is unknown after ONNX's shape inference",
         failure();
}

FailureOr<RankedTensorType> NodeConverter::getRankedInputType(unsigned i) {
  if (auto type = dyn_cast<RankedTensorType>(input(i).getType()))
    return type;
  return error() << "the rank of input " << i
                 << " is unknown after ONNX's shape inference",
         failure();
}

Attribute NodeConverter::getAttribute(StringRef name) const {
  return node.getOnnxAttrs().get(name);
}

FailureOr<int64_t> NodeConverter::getInt(StringRef name, int64_t fallback) {
  Attribute attribute = getAttribute(name);
  if (!attribute)
    return fallback;
  if (auto integer = dyn_cast<IntegerAttr>(attribute))
    return integer.getInt();
  return error() << "attribute '" << name << "' must be an INT", failure();
}

FailureOr<float> NodeConverter::getFloat(StringRef name, float fallback) {
  Attribute attribute = getAttribute(name);
  if (!attribute)
    return fallback;
  if (auto value = dyn_cast<FloatAttr>(attribute))
    return static_cast<float>(value.getValueAsDouble());
  return error() << "attribute '" << name << "' must be a FLOAT", failure();
}

FailureOr<std::string> NodeConverter::getString(StringRef name,
                                                StringRef fallback) {
  Attribute attribute = getAttribute(name);
  if (!attribute)
    return fallback.str();
  if (auto value = dyn_cast<StringAttr>(attribute))
    return value.str();
  return error() << "attribute '" << name << "' must be a STRING", failure();
}

FailureOr<std::optional<SmallVector<int64_t>>>
NodeConverter::getInts(StringRef name) {
  Attribute attribute = getAttribute(name);
  if (!attribute)
    return std::optional<SmallVector<int64_t>>();
  auto array = dyn_cast<ArrayAttr>(attribute);
  SmallVector<int64_t> values;
  for (Attribute element : array ? array.getValue() : ArrayRef<Attribute>()) {
    auto integer = dyn_cast<IntegerAttr>(element);
    if (!integer)
      break;
    values.push_back(integer.getInt());
  }
  if (!array || values.size() != array.size())
    return error() << "attribute '" << name << "' must be INTS", failure();
  return std::optional<SmallVector<int64_t>>(std::move(values));
}

FailureOr<int64_t> NodeConverter::normalizeAxis(int64_t axis, int64_t rank,
                                                StringRef what) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return error() << what << " " << axis << " is out of range for rank "
                   << rank,
           failure();
  return axis < 0 ? axis + rank : axis;
}

FailureOr<int64_t> NodeConverter::getAxis(StringRef name, int64_t fallback,
                                          int64_t rank) {
  FailureOr<int64_t> axis = getInt(name, fallback);
  if (failed(axis))
    return failure();
  return normalizeAxis(*axis, rank, ("attribute '" + name + "'").str());
}

/// The elements of a dense_resource of signed integers (large
/// initializers), if its blob is there.
static std::optional<SmallVector<int64_t>>
readResourceInts(DenseResourceElementsAttr resource) {
  auto type = dyn_cast<IntegerType>(resource.getType().getElementType());
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!type || !blob)
    return std::nullopt;
  unsigned width = type.getWidth();
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return std::nullopt;
  ArrayRef<char> data = blob->getData();
  size_t bytes = width / 8;
  int64_t count = resource.getType().getNumElements();
  if (static_cast<size_t>(count) * bytes != data.size())
    return std::nullopt;
  SmallVector<int64_t> values;
  values.reserve(count);
  for (int64_t i = 0; i < count; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, data.data() + i * bytes, bytes);
    values.push_back(APInt(width, raw).getSExtValue());
  }
  return values;
}

std::optional<SmallVector<int64_t>>
onnx_plugin::matchConstantInts(Value value) {
  Attribute attribute;
  if (!matchPattern(value, m_Constant(&attribute)))
    return std::nullopt;
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attribute))
    return readResourceInts(resource);
  auto dense = dyn_cast<DenseIntElementsAttr>(attribute);
  if (!dense)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &element : dense.getValues<APInt>())
    values.push_back(element.getSExtValue());
  return values;
}

FailureOr<SmallVector<int64_t>> NodeConverter::getConstantInts(unsigned i,
                                                               StringRef what) {
  if (std::optional<SmallVector<int64_t>> values = matchConstantInts(input(i)))
    return *values;
  return error() << "input " << i << " (" << what
                 << ") must be a constant (an initializer or a Constant "
                    "node): Kiln needs it at compile time",
         failure();
}

std::optional<double> NodeConverter::getConstantFloat(unsigned i) const {
  Attribute attribute;
  if (!hasInput(i) || !matchPattern(input(i), m_Constant(&attribute)))
    return std::nullopt;
  auto dense = dyn_cast<DenseFPElementsAttr>(attribute);
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  return (*dense.getValues<APFloat>().begin()).convertToDouble();
}

/// How run-time errors open: "node 'NAME' (OpType): ".
static std::string describeAtRunTime(NodeOp node) {
  std::string name;
  if (auto named = dyn_cast<NameLoc>(node.getLoc()))
    name = "'" + named.getName().str() + "' ";
  return ("node " + name + "(" + node.getOpType() + "): ").str();
}

void NodeConverter::require(Value condition, const Twine &message,
                            ValueRange values, OpBuilder *b) {
  createAssert(b ? *b : builder, getLoc(), condition,
               describeAtRunTime(node) + message.str(), values);
}

LogicalResult NodeConverter::checkIndices(Value indices, Value size,
                                          const Twine &what) {
  std::optional<int64_t> constantSize = getConstantIntValue(size);
  std::optional<SmallVector<int64_t>> constants = matchConstantInts(indices);
  if (constantSize && constants) {
    for (int64_t index : *constants)
      if (index < -*constantSize || index >= *constantSize)
        return error() << "index " << index << " is out of range for " << what
                       << ", of size " << *constantSize << " (indices must be "
                       << "in [" << -*constantSize << ", " << *constantSize
                       << "))",
               failure();
    return success();
  }
  Location loc = getLoc();
  Value low = arith::SubIOp::create(
      builder, loc, arith::ConstantIndexOp::create(builder, loc, 0), size);
  createRangeCheck(builder, loc, indices, low, size,
                   describeAtRunTime(node) +
                       ("{0} of its indices are outside [{3}, {4}), the "
                        "range of " +
                        what + " (they range from {1} to {2})")
                           .str());
  return success();
}

LogicalResult NodeConverter::checkAttributes(ArrayRef<StringRef> known) {
  for (NamedAttribute attribute : node.getOnnxAttrs())
    if (!llvm::is_contained(known, attribute.getName().getValue()))
      return error() << "attribute '" << attribute.getName().getValue()
                     << "' is not supported",
             failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value onnx_plugin::createEmptyLike(OpBuilder &builder, Location loc,
                                   RankedTensorType type, ValueRange like) {
  SmallVector<OpFoldResult> sizes;
  int64_t rank = type.getRank();
  for (int64_t d = 0; d < rank; ++d) {
    if (!type.isDynamicDim(d)) {
      sizes.push_back(builder.getIndexAttr(type.getDimSize(d)));
      continue;
    }
    // A dynamic size: from an input whose dim here is not a broadcast 1.
    Value size;
    for (Value value : like) {
      auto valueType = dyn_cast<RankedTensorType>(value.getType());
      if (!valueType)
        continue;
      int64_t valueDim = d - (rank - valueType.getRank());
      if (valueDim < 0 || valueType.getDimSize(valueDim) == 1)
        continue;
      size = tensor::DimOp::create(builder, loc, value, valueDim);
      break;
    }
    if (!size)
      size = arith::ConstantIndexOp::create(builder, loc, 1);
    sizes.push_back(size);
  }
  return tensor::EmptyOp::create(builder, loc, sizes, type.getElementType());
}

AffineMap onnx_plugin::getBroadcastMap(RankedTensorType operand,
                                       RankedTensorType resultType) {
  MLIRContext *context = resultType.getContext();
  int64_t rank = resultType.getRank(), offset = rank - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    bool broadcast =
        operand.getDimSize(d) == 1 && resultType.getDimSize(d + offset) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(d + offset, context));
  }
  return AffineMap::get(rank, 0, exprs, context);
}

Value onnx_plugin::buildElementwise(
    OpBuilder &builder, Location loc, RankedTensorType resultType,
    ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  Value init = createEmptyLike(builder, loc, resultType, inputs);
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(
        getBroadcastMap(cast<RankedTensorType>(input.getType()), resultType));
  maps.push_back(builder.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value result = body(b, l, args.drop_back());
        linalg::YieldOp::create(b, l, result);
      });
  return generic.getResult(0);
}

Value onnx_plugin::floatConstant(OpBuilder &b, Location loc, Type type,
                                 double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

SmallVector<utils::IteratorType>
onnx_plugin::getParallelIterators(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

Value onnx_plugin::buildCopy(OpBuilder &b, Location loc, RankedTensorType type,
                             Value input, Value init, AffineMap inputMap) {
  int64_t rank = type.getRank();
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{input}, ValueRange{init},
             ArrayRef<AffineMap>{inputMap, b.getMultiDimIdentityMap(rank)},
             getParallelIterators(rank),
             [](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(nb, l, args[0]);
             })
      .getResult(0);
}

Value onnx_plugin::createEmptyOfDims(OpBuilder &b, Location loc,
                                     RankedTensorType type, Value like) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? OpFoldResult(getDimSize(b, loc, like, d))
                        : b.getIndexAttr(type.getDimSize(d)));
  return tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
}

Value onnx_plugin::getDimSize(OpBuilder &builder, Location loc, Value value,
                              int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(d));
  return tensor::DimOp::create(builder, loc, value, d);
}

Value onnx_plugin::reshapeTo(OpBuilder &builder, Location loc, Value value,
                             RankedTensorType type) {
  auto source = cast<RankedTensorType>(value.getType());
  if (source.getShape() == type.getShape())
    return value;
  if (source.getRank() > type.getRank()) {
    if (auto reassociation = getReassociationIndicesForCollapse(
            source.getShape(), type.getShape()))
      return tensor::CollapseShapeOp::create(builder, loc, type, value,
                                             *reassociation);
  } else if (source.getRank() < type.getRank()) {
    // An expansion whose groups each have at most one dynamic dim, which
    // the others' sizes then give.
    auto reassociation =
        getReassociationIndicesForCollapse(type.getShape(), source.getShape());
    if (reassociation &&
        llvm::all_of(*reassociation, [&](const ReassociationIndices &group) {
          return llvm::count_if(group, [&](int64_t d) {
                   return type.isDynamicDim(d);
                 }) <= 1;
        }))
      return tensor::ExpandShapeOp::create(builder, loc, type, value,
                                           *reassociation);
  }
  if (!source.hasStaticShape() || !type.hasStaticShape())
    return nullptr;
  // Static shapes that regroup dims: through one dimension.
  auto flat =
      RankedTensorType::get({source.getNumElements()}, source.getElementType());
  SmallVector<ReassociationIndices> all(1);
  for (int64_t d = 0; d < source.getRank(); ++d)
    all[0].push_back(d);
  Value collapsed =
      source.getRank() == 1
          ? value
          : tensor::CollapseShapeOp::create(builder, loc, flat, value, all)
                .getResult();
  if (type.getRank() == 1)
    return collapsed;
  SmallVector<ReassociationIndices> expand(1);
  for (int64_t d = 0; d < type.getRank(); ++d)
    expand[0].push_back(d);
  if (type.getRank() == 0)
    expand.clear();
  return tensor::ExpandShapeOp::create(builder, loc, type, collapsed, expand);
}

Value onnx_plugin::castScalar(OpBuilder &builder, Location loc, Value value,
                              Type type, bool isUnsigned, bool toUnsigned) {
  Type source = value.getType();
  if (source == type)
    return value;
  auto sourceFloat = dyn_cast<FloatType>(source);
  auto targetFloat = dyn_cast<FloatType>(type);
  if (sourceFloat && targetFloat)
    return sourceFloat.getWidth() < targetFloat.getWidth()
               ? arith::ExtFOp::create(builder, loc, type, value).getResult()
               : arith::TruncFOp::create(builder, loc, type, value).getResult();
  if (sourceFloat && type.isInteger(1)) {
    // To bool: nonzero (NaN included) is true.
    Value zero =
        arith::ConstantOp::create(builder, loc, builder.getZeroAttr(source));
    return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE, value,
                                 zero);
  }
  if (sourceFloat)
    return toUnsigned
               ? arith::FPToUIOp::create(builder, loc, type, value).getResult()
               : arith::FPToSIOp::create(builder, loc, type, value).getResult();
  if (targetFloat)
    return isUnsigned || source.isInteger(1)
               ? arith::UIToFPOp::create(builder, loc, type, value).getResult()
               : arith::SIToFPOp::create(builder, loc, type, value).getResult();
  unsigned from = source.getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (to == 1) {
    // To bool: nonzero is true.
    Value zero =
        arith::ConstantOp::create(builder, loc, builder.getZeroAttr(source));
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, value,
                                 zero);
  }
  if (from < to)
    return isUnsigned || from == 1
               ? arith::ExtUIOp::create(builder, loc, type, value).getResult()
               : arith::ExtSIOp::create(builder, loc, type, value).getResult();
  return arith::TruncIOp::create(builder, loc, type, value);
}

Value onnx_plugin::wrapIndex(OpBuilder &b, Location loc, Value index,
                             Value size) {
  Value value = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, zero);
  Value wrapped = arith::AddIOp::create(b, loc, value, size);
  return arith::SelectOp::create(b, loc, negative, wrapped, value);
}

Value onnx_plugin::wrapAndClampIndex(OpBuilder &b, Location loc, Value index,
                                     Value size) {
  Value wrapped = wrapIndex(b, loc, index, size);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value last = arith::SubIOp::create(b, loc, size,
                                     arith::ConstantIndexOp::create(b, loc, 1));
  return arith::MaxSIOp::create(
      b, loc, arith::MinSIOp::create(b, loc, wrapped, last), zero);
}

Value onnx_plugin::createCheckedExtract(OpBuilder &b, Location loc,
                                        Value tensor, ValueRange position) {
  auto extract = tensor::ExtractOp::create(b, loc, tensor, position);
  extract->setAttr(KilnDialect::getCheckedIndicesAttrName(), b.getUnitAttr());
  return extract;
}

Value onnx_plugin::buildShapeTensor(OpBuilder &b, Location loc,
                                    ArrayRef<Value> sizes) {
  SmallVector<Value> elements;
  for (Value size : sizes)
    elements.push_back(
        arith::IndexCastOp::create(b, loc, b.getI64Type(), size));
  auto type = RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                                    b.getI64Type());
  return tensor::FromElementsOp::create(b, loc, type, elements);
}
