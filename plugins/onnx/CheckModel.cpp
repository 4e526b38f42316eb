//===- CheckModel.cpp - ONNX's checker and shape inference ----------------===//
//
// Built with -fexceptions (CMakeLists.txt): the only place Kiln lets an
// exception through, from ONNX's library into a catch right here.
//
//===----------------------------------------------------------------------===//

#include "CheckModel.h"

#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"

#include <exception>

using namespace kiln;

llvm::Error onnx_plugin::checkAndInferShapes(onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &error) {
    return llvm::createStringError(
        llvm::Twine("ONNX's model checker rejects it: ") + error.what());
  }
  try {
    // Strict: a node whose inputs contradict its schema is an error here,
    // not a wrong shape later.
    onnx::ShapeInferenceOptions options(/*check_type_val=*/true,
                                        /*strict_mode_val=*/1,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &error) {
    return llvm::createStringError(
        llvm::Twine("ONNX's shape inference fails on it: ") + error.what());
  }
  return llvm::Error::success();
}
