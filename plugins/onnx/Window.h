//===- Window.h - Sliding windows of convolutions and pools -----*- C++ -*-===//
//
// What Conv, ConvTranspose and the pools share: a window's geometry read
// from ONNX's attributes (auto_pad and ceil_mode made explicit pads), the
// padding of the spatial dims, 1-D tensors as 2-D of height 1.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_WINDOW_H
#define KILN_PLUGINS_ONNX_WINDOW_H

#include "Converters.h"

namespace kiln::onnx_plugin {

/// A window's geometry along each spatial dim.
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, dilations, padBegin, padEnd;

  /// The window of a 1-D op as 2-D of height 1.
  void addUnitHeight();
};

/// Reads kernel_shape (or `kernel` from the filter), strides, dilations,
/// pads and auto_pad for an input of spatial sizes `sizes` (static) whose
/// results have spatial sizes `outSizes`; `ceil_mode` and uneven strides
/// add end padding so that every output window is inside the padded
/// input.
mlir::FailureOr<Window> readWindow(NodeConverter &node,
                                   llvm::ArrayRef<int64_t> sizes,
                                   llvm::ArrayRef<int64_t> outSizes,
                                   llvm::ArrayRef<int64_t> kernel);

/// `input` padded by `window` along its last dims with `value`.
mlir::Value padSpatial(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value input, const Window &window,
                       mlir::TypedAttr value);

/// A 1-D NCW type or tensor as NC1W.
mlir::RankedTensorType addUnitHeight(mlir::RankedTensorType type);
mlir::Value addUnitHeight(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Value value);

/// A tensor of `type` filled with `value`; its dynamic dims (a batch)
/// are the sizes of the same dims of `like`.
mlir::Value createFilled(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::TypedAttr value,
                         mlir::Value like = nullptr);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_WINDOW_H
