//===- Window.h - Sliding windows of convolutions and pools -----*- C++ -*-===//
//
// What Conv, ConvTranspose and the pools share: a window's geometry read
// from ONNX's attributes (auto_pad and ceil_mode made explicit pads), the
// padding of the spatial dims, 1-D tensors as 2-D of height 1. Spatial
// sizes may be dynamic: pads and output sizes are then computed at run
// time, and stay constants wherever the input's sizes are.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_WINDOW_H
#define KILN_PLUGINS_ONNX_WINDOW_H

#include "Converters.h"

namespace kiln::onnx_plugin {

/// Index arithmetic on sizes that are constants or run-time values:
/// folded to a constant when every operand is one.
class SizeMath {
public:
  SizeMath(mlir::OpBuilder &builder, mlir::Location loc)
      : b(builder), loc(loc) {}

  mlir::OpFoldResult add(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult sub(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult mul(mlir::OpFoldResult x, int64_t y);
  /// x / y rounded down (or up with `ceil`); y > 0.
  mlir::OpFoldResult div(mlir::OpFoldResult x, int64_t y, bool ceil = false);
  mlir::OpFoldResult max(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult min(mlir::OpFoldResult x, mlir::OpFoldResult y);
  mlir::OpFoldResult constant(int64_t value);
  /// The size as an index value.
  mlir::Value value(mlir::OpFoldResult size);
  /// Dim `d` of `tensor`: a constant when static.
  mlir::OpFoldResult dim(mlir::Value tensor, int64_t d);

private:
  /// The larger (`max`) or smaller of x and y.
  mlir::OpFoldResult extreme(mlir::OpFoldResult x, mlir::OpFoldResult y,
                             bool max);

  mlir::OpBuilder &b;
  mlir::Location loc;
};

/// A window's geometry along each spatial dim.
struct Window {
  llvm::SmallVector<int64_t> kernel, strides, dilations;
  /// The pads before and after each spatial dim; `padEnd` includes what
  /// ceil_mode and uneven strides add, `explicitPadEnd` does not.
  llvm::SmallVector<mlir::OpFoldResult> padBegin, padEnd, explicitPadEnd;
  /// The result's spatial sizes.
  llvm::SmallVector<mlir::OpFoldResult> outSizes;

  /// The window of a 1-D op as 2-D of height 1.
  void addUnitHeight(mlir::Builder &builder);
};

/// Reads kernel_shape (or `kernel` from the filter), strides, dilations,
/// pads, auto_pad and ceil_mode for `input` (N, C, spatial...), whose
/// results have spatial sizes `outSizes` (as ONNX's shape inference gave
/// them; the dynamic ones are computed as ONNX Runtime does); `ceil_mode`
/// and uneven strides add end padding so that every output window is
/// inside the padded input.
mlir::FailureOr<Window> readWindow(NodeConverter &node, mlir::Value input,
                                   llvm::ArrayRef<int64_t> outSizes,
                                   llvm::ArrayRef<int64_t> kernel);

/// `input` padded along its last dims with `value`, by `padBegin` before
/// and `padEnd` after each.
mlir::Value padSpatial(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value input,
                       llvm::ArrayRef<mlir::OpFoldResult> padBegin,
                       llvm::ArrayRef<mlir::OpFoldResult> padEnd,
                       mlir::TypedAttr value);
/// `input` padded by `window`'s pads (ceil_mode's included).
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
/// A tensor of `type` filled with `value`, its dynamic dims of `sizes`
/// (one per dim; the static dims' entries are not read).
mlir::Value createFilled(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::RankedTensorType type, mlir::TypedAttr value,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes);

/// The sizes of a window op's result: the batch of `input`, `channels`,
/// then `window`'s output sizes.
llvm::SmallVector<mlir::OpFoldResult>
getWindowResultSizes(mlir::OpBuilder &builder, mlir::Location loc,
                     mlir::Value input, mlir::OpFoldResult channels,
                     const Window &window);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_WINDOW_H
