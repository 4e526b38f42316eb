//===- TransposeConstant.cpp - Dense constants in another layout ----------===//

#include "TransposeConstant.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

using namespace mlir;

DenseElementsAttr kiln::getDenseElements(Attribute attr) {
  if (auto dense = dyn_cast<DenseElementsAttr>(attr))
    return dense;
  auto resource = dyn_cast<DenseResourceElementsAttr>(attr);
  if (!resource)
    return {};
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  auto type = cast<ShapedType>(resource.getType());
  Type element = type.getElementType();
  if (!blob || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  ArrayRef<char> data = blob->getData();
  if (static_cast<int64_t>(data.size()) !=
      type.getNumElements() * (element.getIntOrFloatBitWidth() / 8))
    return {};
  return DenseElementsAttr::getFromRawBuffer(type, data);
}

Value kiln::createTranspose(OpBuilder &builder, Location loc, Value value,
                            ArrayRef<int64_t> perm) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(builder, loc, value);
  SmallVector<OpFoldResult> permuted =
      llvm::map_to_vector(perm, [&](int64_t p) { return sizes[p]; });
  Value empty = tensor::EmptyOp::create(builder, loc, permuted,
                                        getElementTypeOrSelf(value));
  return linalg::TransposeOp::create(builder, loc, value, empty, perm)
      ->getResult(0);
}

DenseElementsAttr kiln::transposeConstant(DenseElementsAttr attr,
                                          ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  ArrayRef<int64_t> shape = type.getShape();
  auto permuted = RankedTensorType::get(
      llvm::map_to_vector(perm, [&](int64_t p) { return shape[p]; }),
      type.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(permuted);
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  ArrayRef<char> raw = attr.getRawData();
  int64_t rank = shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  std::vector<char> result(raw.size());
  SmallVector<int64_t> index(rank, 0);
  ArrayRef<int64_t> target = permuted.getShape();
  for (int64_t linear = 0, e = type.getNumElements(); linear < e; ++linear) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += index[d] * strides[perm[d]];
    std::memcpy(result.data() + linear * bytes, raw.data() + source * bytes,
                bytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < target[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(permuted, result);
}

DenseElementsAttr kiln::padConstant(DenseElementsAttr attr, int64_t dim,
                                    int64_t size) {
  auto type = cast<RankedTensorType>(attr.getType());
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0 ||
      size < type.getDimSize(dim))
    return {};
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  auto padded = RankedTensorType::get(shape, element);
  // Rows: the dims up to `dim`; each row holds the dims after it.
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t inner = bytes;
  for (int64_t d = dim + 1; d < type.getRank(); ++d)
    inner *= shape[d];
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  int64_t oldRow = type.getDimSize(dim) * inner, newRow = size * inner;
  std::vector<char> result(outer * newRow, 0);
  if (attr.isSplat()) {
    ArrayRef<char> value = attr.getRawData();
    for (int64_t row = 0; row < outer; ++row)
      for (int64_t at = 0; at < oldRow; at += bytes)
        std::memcpy(result.data() + row * newRow + at, value.data(), bytes);
  } else {
    ArrayRef<char> raw = attr.getRawData();
    for (int64_t row = 0; row < outer; ++row)
      std::memcpy(result.data() + row * newRow, raw.data() + row * oldRow,
                  oldRow);
  }
  return DenseElementsAttr::getFromRawBuffer(padded, result);
}
