//===- Window.cpp - Sliding windows of convolutions and pools -------------===//

#include "Window.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

void Window::addUnitHeight() {
  for (SmallVector<int64_t> *values : {&kernel, &strides, &dilations})
    values->insert(values->begin(), 1);
  for (SmallVector<int64_t> *values : {&padBegin, &padEnd})
    values->insert(values->begin(), 0);
}

FailureOr<Window> onnx_plugin::readWindow(NodeConverter &node,
                                          ArrayRef<int64_t> sizes,
                                          ArrayRef<int64_t> outSizes,
                                          ArrayRef<int64_t> kernel) {
  int64_t rank = sizes.size();
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
  if (failed(autoPad))
    return failure();
  for (int64_t d = 0; d < rank; ++d) {
    if (window.strides[d] < 1 || window.dilations[d] < 1 ||
        window.kernel[d] < 1)
      return node.error() << "strides, dilations and kernel sizes must be "
                             "positive",
             failure();
    if (ShapedType::isDynamic(sizes[d]) || ShapedType::isDynamic(outSizes[d]))
      return node.error() << "its spatial sizes must be static", failure();
    int64_t extent = (window.kernel[d] - 1) * window.dilations[d] + 1;
    int64_t begin = pads[d], end = pads[d + rank];
    if (*autoPad == "SAME_UPPER" || *autoPad == "SAME_LOWER") {
      int64_t out = (sizes[d] + window.strides[d] - 1) / window.strides[d];
      int64_t total = std::max<int64_t>(
          (out - 1) * window.strides[d] + extent - sizes[d], 0);
      begin = *autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (*autoPad == "VALID") {
      begin = end = 0;
    } else if (*autoPad != "NOTSET") {
      return node.error() << "auto_pad '" << *autoPad << "' is unknown",
             failure();
    }
    if (begin < 0 || end < 0)
      return node.error() << "negative pads are not supported", failure();
    // The last output window must end inside the padded input (ceil_mode
    // reads past it).
    int64_t needed = (outSizes[d] - 1) * window.strides[d] + extent;
    end = std::max(end, needed - sizes[d] - begin);
    window.padBegin.push_back(begin);
    window.padEnd.push_back(end);
  }
  return window;
}

Value onnx_plugin::padSpatial(OpBuilder &b, Location loc, Value input,
                              const Window &window, TypedAttr value) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t spatial = window.padBegin.size(), lead = type.getRank() - spatial;
  if (llvm::all_of(window.padBegin, [](int64_t p) { return p == 0; }) &&
      llvm::all_of(window.padEnd, [](int64_t p) { return p == 0; }))
    return input;
  SmallVector<int64_t> low(lead, 0), high(lead, 0), shape(type.getShape());
  for (int64_t d = 0; d < spatial; ++d) {
    low.push_back(window.padBegin[d]);
    high.push_back(window.padEnd[d]);
    shape[lead + d] += window.padBegin[d] + window.padEnd[d];
  }
  Value fill = arith::ConstantOp::create(b, loc, value);
  auto paddedType = RankedTensorType::get(shape, type.getElementType());
  SmallVector<OpFoldResult> lowSizes, highSizes;
  for (auto [l, h] : llvm::zip(low, high)) {
    lowSizes.push_back(b.getIndexAttr(l));
    highSizes.push_back(b.getIndexAttr(h));
  }
  return tensor::PadOp::create(b, loc, paddedType, input, lowSizes, highSizes,
                               fill);
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
