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

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/CrashRecoveryContext.h"

#include <cstring>
#include <exception>
#include <string>

using namespace kiln;

/// Runs `work`, one of ONNX's library's steps (`what`), and turns what it
/// throws into an error that opens with `rejects`, and a crash (a bug of
/// the library on a graph Kiln's checks let through: SIGFPE, SIGSEGV) into
/// an error too, so that the process that imports the model lives on. The
/// instrumented build lets the crash through, for its report.
static llvm::Error runLibrary(llvm::StringRef what, llvm::StringRef rejects,
                              llvm::function_ref<void()> work) {
  std::string thrown;
  auto guarded = [&] {
    try {
      work();
    } catch (const std::exception &error) {
      thrown = error.what();
    }
  };
#if LLVM_ADDRESS_SANITIZER_BUILD
  guarded();
#else
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  if (!recovery.RunSafely(guarded)) {
    std::string signal = recovery.RetCode > 128
                             ? std::string(strsignal(recovery.RetCode - 128))
                             : "code " + std::to_string(recovery.RetCode);
    return llvm::createStringError(
        (what + " crashed on the model (" + signal +
         "): its graph holds something ONNX 1.12 cannot take that Kiln does "
         "not check yet; please report it with the model")
            .str());
  }
#endif
  if (!thrown.empty())
    return llvm::createStringError((rejects + ": " + thrown).str());
  return llvm::Error::success();
}

static llvm::Error inferShapes(onnx::ModelProto &model, bool strict);

/// Whether `info` is a tensor without a shape: a graph output so declared
/// is one ONNX Runtime takes (the shape is inferred) and ONNX's checker
/// refuses.
static bool isShapeless(const onnx::ValueInfoProto &info) {
  return info.type().has_tensor_type() &&
         !info.type().tensor_type().has_shape();
}

static llvm::Error check(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  // Shape inference writes what it infers into the graph's outputs.
  if (llvm::any_of(graph.output(), isShapeless))
    if (llvm::Error failure = inferShapes(model, /*strict=*/false))
      return failure;
  // Outputs it finds no shape for either (an STFT over a signal of dynamic
  // length: InferNewOps.cpp types those later) are out of the checker's
  // sight while it runs.
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> outputs =
      graph.output();
  auto *checked = graph.mutable_output();
  for (int i = checked->size() - 1; i >= 0; --i)
    if (isShapeless(checked->Get(i)))
      checked->DeleteSubrange(i, 1);
  llvm::Error failure =
      runLibrary("ONNX's model checker", "ONNX's model checker rejects it",
                 [&] { onnx::checker::check_model(model); });
  graph.mutable_output()->Swap(&outputs);
  return failure;
}

llvm::Error onnx_plugin::completeOutputTypes(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  for (onnx::ValueInfoProto &output : *graph.mutable_output()) {
    if (!isShapeless(output))
      continue;
    for (const onnx::ValueInfoProto &info : graph.value_info())
      if (info.name() == output.name() && !isShapeless(info) &&
          info.type().has_tensor_type())
        *output.mutable_type() = info.type();
    if (isShapeless(output))
      return llvm::createStringError(
          "graph output '" + output.name() +
          "' declares no shape and shape inference finds none (not even its "
          "rank); give its shape in the model");
  }
  return llvm::Error::success();
}

/// Whether a Shape node of `graph` (or a graph nested in it) reads a value
/// that shape inference gave no type at all: the output of an op no
/// schema knows. ONNX 1.12's data propagation reads past the end of such
/// a Shape's data when a Gather reads it (SIGSEGV, found by the
/// onnx_model fuzzer). A value typed without a shape is fine.
static bool hasShapeOfUntyped(const onnx::GraphProto &graph,
                              llvm::StringSet<> &typed) {
  auto note = [&](const onnx::ValueInfoProto &info) {
    if (info.type().has_tensor_type())
      typed.insert(info.name());
  };
  for (const auto *infos :
       {&graph.input(), &graph.value_info(), &graph.output()})
    for (const onnx::ValueInfoProto &info : *infos)
      note(info);
  for (const onnx::TensorProto &tensor : graph.initializer())
    typed.insert(tensor.name());
  for (const onnx::NodeProto &node : graph.node()) {
    for (const onnx::AttributeProto &attribute : node.attribute()) {
      if (attribute.has_g() && hasShapeOfUntyped(attribute.g(), typed))
        return true;
      for (const onnx::GraphProto &nested : attribute.graphs())
        if (hasShapeOfUntyped(nested, typed))
          return true;
    }
    if (node.op_type() == "Shape" &&
        (node.domain().empty() || node.domain() == "ai.onnx") &&
        node.input_size() == 1 && !typed.contains(node.input(0)))
      return true;
  }
  return false;
}

static llvm::Error inferShapes(onnx::ModelProto &model, bool strict) {
  // Strict: a node whose inputs contradict its schema is an error here,
  // not a wrong shape later. Before an upgrade, what old exporters wrote
  // against their opset's rules (int64 Constants in opset 6) passes.
  auto run = [&](bool propagate) {
    return runLibrary("ONNX's shape inference",
                      "ONNX's shape inference fails on it", [&] {
                        onnx::ShapeInferenceOptions options(
                            /*check_type_val=*/strict,
                            /*strict_mode_val=*/strict ? 1 : 0,
                            /*data_prop_val=*/propagate);
                        onnx::shape_inference::InferShapes(
                            model, onnx::OpSchemaRegistry::Instance(), options);
                      });
  };
  // Types first, without propagating data; then with it (which follows
  // shapes computed in the graph), unless a Shape reads a value still
  // untyped.
  if (llvm::Error failure = run(/*propagate=*/false))
    return failure;
  llvm::StringSet<> typed;
  if (hasShapeOfUntyped(model.graph(), typed))
    return llvm::Error::success();
  return run(/*propagate=*/true);
}

/// ONNX 1.12's adapter from Reshape-4 to Reshape-5 moves the `shape`
/// attribute into a Constant whose tensor has no dims: a scalar holding
/// several elements, which no reader can take (every opset-1 Reshape
/// failed to import). The shape input of Reshape is 1-D: the dims the
/// adapter left out.
static void repairConvertedReshapes(onnx::ModelProto &model) {
  onnx::GraphProto &graph = *model.mutable_graph();
  llvm::StringSet<> shapes;
  for (const onnx::NodeProto &node : graph.node())
    if (node.op_type() == "Reshape" && node.domain().empty() &&
        node.input_size() == 2)
      shapes.insert(node.input(1));
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    if (node.op_type() != "Constant" || node.output_size() != 1 ||
        !shapes.contains(node.output(0)))
      continue;
    for (onnx::AttributeProto &attribute : *node.mutable_attribute()) {
      onnx::TensorProto &tensor = *attribute.mutable_t();
      if (attribute.name() == "value" && tensor.dims_size() == 0 &&
          tensor.data_type() == onnx::TensorProto::INT64 &&
          !tensor.has_raw_data())
        tensor.add_dims(tensor.int64_data_size());
    }
  }
}

llvm::Error onnx_plugin::checkAndUpgrade(onnx::ModelProto &model,
                                         int64_t fromVersion, int64_t version) {
  // The converter's adapters read the shapes of the values they rewrite.
  if (llvm::Error failure = check(model))
    return failure;
  if (llvm::Error failure = inferShapes(model, /*strict=*/false))
    return failure;
  prepareUpgrade(model, fromVersion);
  onnx::ModelProto converted;
  if (llvm::Error failure =
          runLibrary("ONNX's version converter",
                     ("ONNX's version converter cannot bring it from opset " +
                      llvm::Twine(fromVersion) + " to " + llvm::Twine(version))
                         .str(),
                     [&] {
                       converted = onnx::version_conversion::ConvertVersion(
                           model, static_cast<int>(version));
                     }))
    return failure;
  model = std::move(converted);
  repairConvertedReshapes(model);
  return llvm::Error::success();
}

llvm::Error onnx_plugin::checkAndInferShapes(onnx::ModelProto &model) {
  if (llvm::Error failure = check(model))
    return failure;
  return inferShapes(model, /*strict=*/true);
}

llvm::Error onnx_plugin::inferGraphShapes(onnx::ModelProto &model) {
  return inferShapes(model, /*strict=*/true);
}
