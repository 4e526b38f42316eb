//===- ONNX.h - The ONNX front end ------------------------------*- C++ -*-===//
//
// The onnx plugin's pieces: the `onnx` dialect the importer produces, the
// importer (a ModelProto read with ONNX's library, checked, shapes
// inferred, turned into one function of `onnx.node` ops), and the `onnx`
// input conversion that lowers those ops to linalg on tensors.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_ONNX_H
#define KILN_PLUGINS_ONNX_ONNX_H

#include "kiln/Input/Importer.h"
#include "kiln/Input/Passes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include <string>

#include "ONNXDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ONNXTypes.h.inc"

#define GET_OP_CLASSES
#include "ONNXOps.h.inc"

namespace kiln {

#define GEN_PASS_DECL
#include "Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

namespace onnx_plugin {

/// The default domain's opset the converters read, ONNX 1.12's newest.
/// The importer upgrades models of older opsets to it.
constexpr int64_t kOpset = 17;
/// The domain of ONNX's training ops (Adagrad, Adam, Momentum) and its one
/// opset, which ONNX 1.12 defines.
constexpr llvm::StringLiteral kTrainingDomain = "ai.onnx.preview.training";
constexpr int64_t kTrainingOpset = 1;
/// The oldest opset a converter of a hand-written `onnx.node` takes.
constexpr int64_t kMinOpset = 1;

/// Where an imported model's external data may come from.
struct ExternalDataOptions {
  /// The folder its locations are relative to; "" for the model's own.
  std::string folder;
  /// Whether a location (through links) may lead out of that folder.
  bool anywhere = false;
};

/// The `onnx` importer: recognizes a serialized ModelProto by its
/// top-level fields and imports it.
InputImporter getImporter(const ExternalDataOptions &options);

/// The `onnx` input conversion, chosen for programs with `onnx` ops.
InputConversion getInputConversion();

/// "node 'conv1' (Conv, opset 17)": how errors name a node.
std::string describeNode(NodeOp node);

} // namespace onnx_plugin
} // namespace kiln

#endif // KILN_PLUGINS_ONNX_ONNX_H
