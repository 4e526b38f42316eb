//===- ExtractDispatch.cpp - A program's dispatches, stand-alone ----------===//
//
// A kernel in source form reads its inputs through bindings (to_tensor of
// a kiln.dispatch.binding) and writes its outputs into bindings
// (materialize_in_destination). Replacing the first by function arguments
// and the second by results, in binding order, gives a host function that
// dispatch formation turns back into the same one dispatch.
//
//===----------------------------------------------------------------------===//

#include "kiln/Tuner/ExtractDispatch.h"
#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Dialect/Kiln/Utils/RootOps.h"
#include "kiln/Dialect/Kiln/Utils/WorkloadKey.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace kiln;

/// The kernel module of `executable`: its first variant's, or its own in
/// source form.
static ModuleOp getKernelModule(ExecutableOp executable) {
  for (ExecutableVariantOp variant : executable.getVariantOps())
    return variant.getInnerModule();
  return executable.getSourceModule();
}

/// What the root's configuration came from, in a few words.
static std::string describeConfiguredBy(Operation *root) {
  auto by = root->getAttrOfType<DictionaryAttr>(
      KilnDialect::getConfiguredByAttrName());
  if (!by)
    return "";
  if (auto heuristic = by.getAs<StringAttr>("heuristic"))
    return ("heuristic " + heuristic.getValue()).str();
  if (auto spec = by.getAs<StringAttr>("spec"))
    return ("spec " + spec.getValue()).str();
  std::string text;
  llvm::raw_string_ostream os(text);
  by.print(os);
  return text;
}

/// @main computing `kernel`'s body on tensors, or an error message.
static FailureOr<OwningOpRef<ModuleOp>> buildStandalone(func::FuncOp kernel,
                                                        std::string &whyNot) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  Block &body = kernel.getBody().front();
  // Inputs and outputs by binding index.
  std::map<int64_t, Value> inputs, outputs;
  for (Operation &op : body) {
    if (auto constant = dyn_cast<DispatchConstantOp>(op)) {
      whyNot = "it takes values from the host (dynamic sizes or scalars)";
      return failure();
    }
    if (auto read = dyn_cast<bufferization::ToTensorOp>(op))
      if (auto binding = read.getBuffer().getDefiningOp<DispatchBindingOp>()) {
        inputs[binding.getBinding()] = read.getResult();
        continue;
      }
    if (auto write = dyn_cast<bufferization::MaterializeInDestinationOp>(op))
      if (auto binding = write.getDest().getDefiningOp<DispatchBindingOp>()) {
        outputs[binding.getBinding()] = write.getSource();
        continue;
      }
  }
  if (outputs.empty()) {
    whyNot = "it writes no output binding";
    return failure();
  }
  SmallVector<Type> argumentTypes, resultTypes;
  for (auto &[index, value] : inputs)
    argumentTypes.push_back(value.getType());
  for (auto &[index, value] : outputs)
    resultTypes.push_back(value.getType());

  OpBuilder builder(context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto main =
      func::FuncOp::create(builder, loc, "main",
                           builder.getFunctionType(argumentTypes, resultTypes));
  Block *entry = main.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [argument, input] : llvm::zip(entry->getArguments(), inputs))
    mapping.map(input.second, argument);
  for (Operation &op : body) {
    if (isa<DispatchBindingOp, func::ReturnOp>(op))
      continue;
    if (auto read = dyn_cast<bufferization::ToTensorOp>(op);
        read && mapping.contains(read.getResult()))
      continue;
    if (auto write = dyn_cast<bufferization::MaterializeInDestinationOp>(op);
        write && write.getDest().getDefiningOp<DispatchBindingOp>())
      continue;
    Operation *clone = builder.clone(op, mapping);
    // Configured again by whatever compiles the program.
    clone->walk([](Operation *nested) {
      nested->removeAttr(KilnDialect::getLoweringConfigAttrName());
      nested->removeAttr(KilnDialect::getConfiguredByAttrName());
    });
  }
  SmallVector<Value> results;
  for (auto &[index, value] : outputs)
    results.push_back(mapping.lookupOrDefault(value));
  func::ReturnOp::create(builder, loc, results);
  if (failed(verify(*module))) {
    whyNot = "its kernel does not make a valid function";
    return failure();
  }
  return module;
}

std::vector<ProgramDispatch> kiln::collectDispatches(ModuleOp program) {
  std::vector<ProgramDispatch> dispatches;
  for (auto executable : program.getOps<ExecutableOp>()) {
    ProgramDispatch &dispatch = dispatches.emplace_back();
    dispatch.executable = executable.getSymName().str();
    ModuleOp kernels = getKernelModule(executable);
    func::FuncOp kernel;
    if (kernels)
      for (auto func : kernels.getOps<func::FuncOp>())
        if (!func.isExternal() && !kernel)
          kernel = func;
    if (!kernel) {
      dispatch.whyNot = "it has no kernel on tensors (lowered already?)";
      continue;
    }
    dispatch.root = findRootOp(kernel.getBody().front());
    if (!dispatch.root) {
      dispatch.whyNot = "its kernel has no root op";
      continue;
    }
    dispatch.summary = summarizeRootOp(dispatch.root);
    dispatch.key = computeWorkloadKey(dispatch.root);
    dispatch.config = dispatch.root->getAttrOfType<LoweringConfigAttr>(
        KilnDialect::getLoweringConfigAttrName());
    dispatch.configuredBy = describeConfiguredBy(dispatch.root);
    FailureOr<OwningOpRef<ModuleOp>> standalone =
        buildStandalone(kernel, dispatch.whyNot);
    if (succeeded(standalone))
      dispatch.standalone = std::move(*standalone);
  }
  return dispatches;
}
