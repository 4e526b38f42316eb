//===- TargetBackend.cpp - Target backend registry --------------*- C++ -*-===//
//
// Registries of target backends (built-in and per session) and the
// resolution of --kiln-target options into target attributes.
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/TargetBackend.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Dialect/Kiln/IR/SessionState.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace mlir;
using namespace kiln;

MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::TargetRegistry)
MLIR_DEFINE_EXPLICIT_TYPE_ID(kiln::VariantClaims)

LogicalResult
kiln::verifyLoweringConfig(Operation *root, LoweringConfigAttr config,
                           ExecutableVariantOp variant,
                           function_ref<InFlightDiagnostic()> emitError) {
  auto tilingOp = dyn_cast<TilingInterface>(root);
  if (!tilingOp)
    return emitError() << "the op has no loops to tile (it does not "
                          "implement TilingInterface)";
  if (failed(config.verifyForLoopCount(emitError,
                                       tilingOp.getLoopIteratorTypes().size())))
    return failure();
  if (!variant)
    return success();
  auto backend = TargetRegistry::get(variant->getContext())
                     .lookup(variant.getTarget().getBackend().getValue());
  if (!backend) {
    llvm::consumeError(backend.takeError());
    return success();
  }
  llvm::ArrayRef<PipelineInfo> pipelines = (*backend)->getPipelines();
  StringRef pipeline = config.getPipeline().getValue();
  if (!pipelines.empty() &&
      llvm::none_of(pipelines, [&](const PipelineInfo &info) {
        return info.name == pipeline;
      })) {
    return emitError() << "pipeline '" << pipeline << "' is not one the "
                       << (*backend)->getName() << " backend has (it has "
                       << listPipelineNames(pipelines) << ")";
  }
  return (*backend)->verifyLoweringConfig(root, config, emitError);
}

bool kiln::isLoweredToLLVM(ExecutableVariantOp variant) {
  ModuleOp module = variant.getInnerModule();
  if (!module)
    return false;
  bool lowered = true;
  module.walk([&](Operation *op) {
    if (op != module.getOperation() &&
        !isa<LLVM::LLVMDialect>(op->getDialect())) {
      lowered = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return lowered;
}

std::string kiln::listPipelineNames(llvm::ArrayRef<PipelineInfo> pipelines) {
  std::string names;
  for (auto [index, info] : llvm::enumerate(pipelines)) {
    if (index)
      names += index + 1 == pipelines.size() ? " and " : ", ";
    names += info.name.str();
  }
  return names;
}

TargetBackend::~TargetBackend() = default;

llvm::Expected<std::string>
TargetBackend::serializeVariant(ExecutableVariantOp variant,
                                const KernelSymbols &symbols) const {
  return llvm::createStringError(
      "target backend '" + getName() +
      "' cannot write its variants into a module (it does not implement "
      "serialization)");
}

llvm::Error
TargetBackend::getLinkInputs(ExecutableVariantOp variant,
                             std::vector<std::string> &files) const {
  ArrayAttr attached = variant.getObjectsAttr();
  if (!attached)
    return llvm::Error::success();
  // LinkExecutables checks that each file can be linked, whichever
  // backend named it.
  for (auto object : attached.getAsRange<ObjectAttr>())
    files.push_back(object.getAbsolutePath());
  return llvm::Error::success();
}

TargetRegistry &TargetRegistry::getBuiltin() {
  static TargetRegistry registry;
  return registry;
}

const TargetRegistry &TargetRegistry::get(MLIRContext *context) {
  if (const TargetRegistry *registry = getSessionState<TargetRegistry>(context))
    return *registry;
  return getBuiltin();
}

const TargetBackend *TargetRegistry::find(llvm::StringRef name) const {
  auto it = backends.find(name);
  if (it != backends.end())
    return it->second.get();
  return parent ? parent->find(name) : nullptr;
}

llvm::Error
TargetRegistry::registerBackend(std::unique_ptr<TargetBackend> backend) {
  std::string name = backend->getName().str();
  if (find(name) || !backends.try_emplace(name, std::move(backend)).second)
    return llvm::createStringError("target backend '" + name +
                                   "' is registered twice");
  return llvm::Error::success();
}

llvm::Expected<const TargetBackend *>
TargetRegistry::lookup(llvm::StringRef name) const {
  if (const TargetBackend *backend = find(name))
    return backend;
  return llvm::createStringError(
      "unknown target backend '" + name +
      "'; known backends: " + llvm::join(getNames(), ", "));
}

std::vector<std::string> TargetRegistry::getNames() const {
  std::vector<std::string> names =
      parent ? parent->getNames() : std::vector<std::string>();
  for (const auto &entry : backends)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

void TargetRegistry::getDependentDialects(DialectRegistry &registry) const {
  if (parent)
    parent->getDependentDialects(registry);
  for (const auto &entry : backends)
    entry.getValue()->getDependentDialects(registry);
}

VariantClaims::~VariantClaims() = default;

VariantClaims *kiln::getVariantClaims(MLIRContext *context) {
  return getSessionState<VariantClaims>(context);
}

llvm::Expected<std::vector<std::pair<const TargetBackend *, TargetAttr>>>
kiln::resolveTargets(MLIRContext *context, const TargetOptions &options) {
  if (options.backends.empty())
    return llvm::createStringError(
        "no target backend requested; pass --kiln-target=NAME");
  if (options.cpus.empty())
    return llvm::createStringError(
        "no target CPU requested; pass --kiln-target-cpu=host or CPU names");
  context->getOrLoadDialect<KilnDialect>();
  std::vector<std::pair<const TargetBackend *, TargetAttr>> targets;
  for (const std::string &name : options.backends) {
    auto backend = TargetRegistry::get(context).lookup(name);
    if (!backend)
      return backend.takeError();
    for (const std::string &cpu : options.cpus) {
      TargetRequest request{cpu, options.cpuFeatures};
      auto attr = (*backend)->getTargetAttr(context, request);
      if (!attr)
        return attr.takeError();
      for (auto &[otherBackend, other] : targets)
        if (other == *attr)
          return llvm::createStringError(
              "target " + name + " for CPU '" + attr->getCPU() +
              "' (--kiln-target-cpu=" + cpu +
              ") is requested twice; name each backend and each CPU once");
      targets.emplace_back(*backend, *attr);
    }
  }
  return targets;
}

llvm::Expected<const TargetBackend *> kiln::lookupBackend(MLIRContext *context,
                                                          TargetAttr target) {
  return TargetRegistry::get(context).lookup(target.getBackend().getValue());
}

llvm::Expected<int64_t>
kiln::getWeightPanelBytes(MLIRContext *context, const TargetOptions &options) {
  auto targets = resolveTargets(context, options);
  if (!targets)
    return targets.takeError();
  std::optional<int64_t> common;
  for (auto &[backend, attr] : *targets) {
    int64_t bytes = backend->getWeightPanelBytes(attr);
    if (common && *common != bytes)
      return 0;
    common = bytes;
  }
  return common.value_or(0);
}
