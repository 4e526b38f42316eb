//===- Window.cpp - Sliding windows of convolutions and pools -------------===//

#include "Window.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

//===----------------------------------------------------------------------===//
// SizeMath
//===----------------------------------------------------------------------===//

OpFoldResult SizeMath::constant(int64_t value) { return b.getIndexAttr(value); }

Value SizeMath::value(OpFoldResult size) {
  return getValueOrCreateConstantIndexOp(b, loc, size);
}

OpFoldResult SizeMath::dim(Value tensor, int64_t d) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(d))
    return constant(type.getDimSize(d));
  return tensor::DimOp::create(b, loc, tensor, d).getResult();
}

OpFoldResult SizeMath::add(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return constant(*cx + *cy);
  if (cy == 0)
    return x;
  if (cx == 0)
    return y;
  return arith::AddIOp::create(b, loc, value(x), value(y)).getResult();
}

OpFoldResult SizeMath::sub(OpFoldResult x, OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return constant(*cx - *cy);
  if (cy == 0)
    return x;
  return arith::SubIOp::create(b, loc, value(x), value(y)).getResult();
}

OpFoldResult SizeMath::mul(OpFoldResult x, int64_t y) {
  if (std::optional<int64_t> cx = getConstantIntValue(x))
    return constant(*cx * y);
  if (y == 1)
    return x;
  return arith::MulIOp::create(b, loc, value(x), value(constant(y)))
      .getResult();
}

OpFoldResult SizeMath::div(OpFoldResult x, int64_t y, bool ceil) {
  if (std::optional<int64_t> cx = getConstantIntValue(x))
    return constant(ceil ? llvm::divideCeilSigned(*cx, y)
                         : llvm::divideFloorSigned(*cx, y));
  if (y == 1)
    return x;
  Value divisor = value(constant(y));
  if (ceil)
    return arith::CeilDivSIOp::create(b, loc, value(x), divisor).getResult();
  return arith::FloorDivSIOp::create(b, loc, value(x), divisor).getResult();
}

OpFoldResult SizeMath::extreme(OpFoldResult x, OpFoldResult y, bool max) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return constant(max ? std::max(*cx, *cy) : std::min(*cx, *cy));
  if (max)
    return arith::MaxSIOp::create(b, loc, value(x), value(y)).getResult();
  return arith::MinSIOp::create(b, loc, value(x), value(y)).getResult();
}

OpFoldResult SizeMath::max(OpFoldResult x, OpFoldResult y) {
  return extreme(x, y, /*max=*/true);
}

OpFoldResult SizeMath::min(OpFoldResult x, OpFoldResult y) {
  return extreme(x, y, /*max=*/false);
}

//===----------------------------------------------------------------------===//
// Window
//===----------------------------------------------------------------------===//

void Window::addUnitHeight(Builder &b) {
  for (SmallVector<int64_t> *values : {&kernel, &strides, &dilations})
    values->insert(values->begin(), 1);
  for (SmallVector<OpFoldResult> *values :
       {&padBegin, &padEnd, &explicitPadEnd})
    values->insert(values->begin(), b.getIndexAttr(0));
  outSizes.insert(outSizes.begin(), b.getIndexAttr(1));
}

FailureOr<Window> onnx_plugin::readWindow(NodeConverter &node, Value input,
                                          ArrayRef<int64_t> outSizes,
                                          ArrayRef<int64_t> kernel) {
  int64_t rank = outSizes.size();
  Window window;
  auto readInts = [&](StringRef name, int64_t fallback,
                      SmallVector<int64_t> &into, int64_t count) {
    auto values = node.getInts(name);
    if (failed(values))
      return false;
    into = *values ? **values : SmallVector<int64_t>(count, fallback);
    if (static_cast<int64_t>(into.size()) != count) {
      node.error() << "attribute '" << name << "' has " << into.size()
                   << " values, expected " << count;
      return false;
    }
    return true;
  };
  SmallVector<int64_t> pads;
  if (!readInts("kernel_shape", 1, window.kernel, rank) ||
      !readInts("strides", 1, window.strides, rank) ||
      !readInts("dilations", 1, window.dilations, rank) ||
      !readInts("pads", 0, pads, 2 * rank))
    return failure();
  if (!node.getAttribute("kernel_shape")) {
    if (kernel.empty())
      return node.error() << "attribute 'kernel_shape' is missing", failure();
    window.kernel.assign(kernel.begin(), kernel.end());
  }
  FailureOr<std::string> autoPad = node.getString("auto_pad", "NOTSET");
  FailureOr<int64_t> ceilMode = node.getInt("ceil_mode", 0);
  if (failed(autoPad) || failed(ceilMode))
    return failure();
  if (*autoPad != "NOTSET" && *autoPad != "VALID" && *autoPad != "SAME_UPPER" &&
      *autoPad != "SAME_LOWER")
    return node.error() << "auto_pad '" << *autoPad << "' is unknown",
           failure();
  SizeMath math(node.builder, node.getLoc());
  for (int64_t d = 0; d < rank; ++d) {
    int64_t stride = window.strides[d];
    if (stride < 1 || window.dilations[d] < 1 || window.kernel[d] < 1)
      return node.error() << "strides, dilations and kernel sizes must be "
                             "positive",
             failure();
    if (pads[d] < 0 || pads[d + rank] < 0)
      return node.error() << "negative pads are not supported", failure();
    OpFoldResult size = math.dim(input, 2 + d);
    int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
    OpFoldResult begin = math.constant(pads[d]),
                 end = math.constant(pads[d + rank]);
    if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
      // Output ceil(size / stride); the pads that make it, the odd one at
      // the end for SAME_UPPER.
      OpFoldResult out = math.div(size, stride, /*ceil=*/true);
      OpFoldResult total = math.max(
          math.sub(math.add(math.mul(math.sub(out, math.constant(1)), stride),
                            math.constant(extent)),
                   size),
          math.constant(0));
      OpFoldResult half = math.div(total, 2);
      begin = *autoPad == "SAME_UPPER" ? half : math.sub(total, half);
      end = math.sub(total, begin);
    } else if (*autoPad == "VALID") {
      begin = end = math.constant(0);
    }
    OpFoldResult out;
    // Whether the last window may reach past the explicit end pad (not
    // when the output's size is computed here without ceil_mode).
    bool pastEnd = true;
    if (!ShapedType::isDynamic(outSizes[d])) {
      out = math.constant(outSizes[d]);
    } else {
      // ONNX Runtime's size: (size + pads - extent) / stride + 1, rounded
      // up with ceil_mode, less a last window that would start in the end
      // padding.
      OpFoldResult span =
          math.sub(math.add(math.add(size, begin), end), math.constant(extent));
      out = math.add(math.div(span, stride, *ceilMode != 0), math.constant(1));
      if (*ceilMode)
        out = math.min(out, math.div(math.add(size, begin), stride, true));
      pastEnd = *ceilMode != 0;
    }
    window.padBegin.push_back(begin);
    window.explicitPadEnd.push_back(end);
    window.outSizes.push_back(out);
    if (!pastEnd) {
      window.padEnd.push_back(end);
      continue;
    }
    // The last output window must end inside the padded input (ceil_mode
    // reads past it).
    OpFoldResult needed =
        math.add(math.mul(math.sub(out, math.constant(1)), stride),
                 math.constant(extent));
    window.padEnd.push_back(
        math.max(end, math.sub(math.sub(needed, size), begin)));
  }
  return window;
}

Value onnx_plugin::padSpatial(OpBuilder &b, Location loc, Value input,
                              ArrayRef<OpFoldResult> padBegin,
                              ArrayRef<OpFoldResult> padEnd, TypedAttr value) {
  auto type = cast<RankedTensorType>(input.getType());
  auto isZero = [](OpFoldResult pad) { return isConstantIntValue(pad, 0); };
  if (llvm::all_of(padBegin, isZero) && llvm::all_of(padEnd, isZero))
    return input;
  int64_t lead = type.getRank() - padBegin.size();
  SmallVector<OpFoldResult> low(lead, b.getIndexAttr(0)),
      high(lead, b.getIndexAttr(0));
  llvm::append_range(low, padBegin);
  llvm::append_range(high, padEnd);
  Value fill = arith::ConstantOp::create(b, loc, value);
  auto staticPads = [](ArrayRef<OpFoldResult> pads) {
    return llvm::map_to_vector(pads, [](OpFoldResult pad) {
      return getConstantIntValue(pad).value_or(ShapedType::kDynamic);
    });
  };
  auto paddedType =
      tensor::PadOp::inferResultType(type, staticPads(low), staticPads(high));
  return tensor::PadOp::create(b, loc, paddedType, input, low, high, fill);
}

Value onnx_plugin::padSpatial(OpBuilder &b, Location loc, Value input,
                              const Window &window, TypedAttr value) {
  return padSpatial(b, loc, input, window.padBegin, window.padEnd, value);
}

RankedTensorType onnx_plugin::addUnitHeight(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.end() - 1, 1);
  return type.clone(shape);
}

Value onnx_plugin::addUnitHeight(OpBuilder &b, Location loc, Value value) {
  return reshapeTo(b, loc, value,
                   addUnitHeight(cast<RankedTensorType>(value.getType())));
}

Value onnx_plugin::createFilled(OpBuilder &b, Location loc,
                                RankedTensorType type, TypedAttr value,
                                Value like) {
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(getDimSize(b, loc, like, d));
  Value empty = tensor::EmptyOp::create(b, loc, type, dynamicSizes);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

Value onnx_plugin::createFilled(OpBuilder &b, Location loc,
                                RankedTensorType type, TypedAttr value,
                                ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
  Value empty = tensor::EmptyOp::create(b, loc, type, dynamicSizes);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

SmallVector<OpFoldResult>
onnx_plugin::getWindowResultSizes(OpBuilder &b, Location loc, Value input,
                                  OpFoldResult channels, const Window &window) {
  SizeMath math(b, loc);
  SmallVector<OpFoldResult> sizes = {math.dim(input, 0), channels};
  llvm::append_range(sizes, window.outSizes);
  return sizes;
}
