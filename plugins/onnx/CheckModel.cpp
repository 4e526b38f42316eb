//===- CheckModel.cpp - ONNX's checker and shape inference ----------------===//
//
// Built with -fexceptions (CMakeLists.txt): the only place Kiln lets an
// exception through, from ONNX's library into a catch right here.
//
//===----------------------------------------------------------------------===//

#include "CheckModel.h"

#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <exception>

using namespace kiln;

static llvm::Error check(const onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &error) {
    return llvm::createStringError(
        llvm::Twine("ONNX's model checker rejects it: ") + error.what());
  }
  return llvm::Error::success();
}

static llvm::Error inferShapes(onnx::ModelProto &model, bool strict) {
  try {
    // Strict: a node whose inputs contradict its schema is an error here,
    // not a wrong shape later. Before an upgrade, what old exporters wrote
    // against their opset's rules (int64 Constants in opset 6) passes.
    onnx::ShapeInferenceOptions options(/*check_type_val=*/strict,
                                        /*strict_mode_val=*/strict ? 1 : 0,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &error) {
    return llvm::createStringError(
        llvm::Twine("ONNX's shape inference fails on it: ") + error.what());
  }
  return llvm::Error::success();
}

llvm::Error onnx_plugin::checkAndUpgrade(onnx::ModelProto &model,
                                         int64_t fromVersion, int64_t version) {
  // The converter's adapters read the shapes of the values they rewrite.
  if (llvm::Error failure = check(model))
    return failure;
  if (llvm::Error failure = inferShapes(model, /*strict=*/false))
    return failure;
  try {
    model = onnx::version_conversion::ConvertVersion(model,
                                                     static_cast<int>(version));
  } catch (const std::exception &error) {
    return llvm::createStringError(
        llvm::Twine("ONNX's version converter cannot bring it from opset ") +
        llvm::Twine(fromVersion) + " to " + llvm::Twine(version) + ": " +
        error.what());
  }
  return llvm::Error::success();
}

llvm::Error onnx_plugin::checkAndInferShapes(onnx::ModelProto &model) {
  if (llvm::Error failure = check(model))
    return failure;
  return inferShapes(model, /*strict=*/true);
}
