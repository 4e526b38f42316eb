//===- TensorProto.h - ONNX tensors as bytes and attributes -----*- C++ -*-===//
//
// ONNX keeps a tensor's elements in one of several fields (raw bytes, or
// a typed list that widens small types to int32); these helpers turn a
// TensorProto into packed little-endian bytes and into MLIR attributes,
// and map ONNX's element types to MLIR's (unsigned ones as ui8...ui64).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_TENSORPROTO_H
#define KILN_PLUGINS_ONNX_TENSORPROTO_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace onnx {
class TensorProto;
} // namespace onnx

namespace kiln::onnx_plugin {

/// The MLIR element type of ONNX's TensorProto::DataType `dataType`, or
/// failure for those Kiln does not support (strings, complex numbers,
/// 8-bit floats).
mlir::FailureOr<mlir::Type> getElementType(mlir::MLIRContext *context,
                                           int dataType);

/// ONNX's name of `dataType` ("FLOAT", "STRING"), for messages.
std::string getDataTypeName(int dataType);

/// The elements of `tensor`, packed little-endian, one byte per bool.
/// False, with `error` set, when the tensor's data does not match its
/// type and shape or is kept elsewhere (external data not loaded).
bool decodeTensorBytes(const onnx::TensorProto &tensor, std::string &bytes,
                       std::string &error);

/// `tensor` as an attribute: dense elements, or a dense_resource blob when
/// it holds more than `resourceBytes` bytes. Errors go to `error()`.
mlir::FailureOr<mlir::ElementsAttr>
importTensor(mlir::MLIRContext *context, const onnx::TensorProto &tensor,
             size_t resourceBytes,
             llvm::function_ref<mlir::InFlightDiagnostic()> error);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_TENSORPROTO_H
