//===- TargetBackend.cpp - Target backend registry --------------*- C++ -*-===//
//
// The process-wide registry of target backends and the resolution of
// --kiln-target options into target attributes.
//
//===----------------------------------------------------------------------===//

#include "kiln/Target/TargetBackend.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>

using namespace mlir;
using namespace kiln;

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
  auto backend =
      TargetRegistry::get().lookup(variant.getTarget().getBackend().getValue());
  if (!backend) {
    llvm::consumeError(backend.takeError());
    return success();
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

TargetBackend::~TargetBackend() = default;

TargetRegistry &TargetRegistry::get() {
  static TargetRegistry registry;
  return registry;
}

llvm::Error
TargetRegistry::registerBackend(std::unique_ptr<TargetBackend> backend) {
  std::string name = backend->getName().str();
  if (!backends.try_emplace(name, std::move(backend)).second)
    return llvm::createStringError("target backend '" + name +
                                   "' is registered twice");
  return llvm::Error::success();
}

llvm::Expected<const TargetBackend *>
TargetRegistry::lookup(llvm::StringRef name) const {
  auto it = backends.find(name);
  if (it != backends.end())
    return it->second.get();
  return llvm::createStringError(
      "unknown target backend '" + name +
      "'; known backends: " + llvm::join(getNames(), ", "));
}

void TargetRegistry::unregisterBackend(llvm::StringRef name) {
  backends.erase(name);
}

VariantClaims::~VariantClaims() = default;

static VariantClaims *currentClaims = nullptr;

void kiln::setVariantClaims(VariantClaims *claims) { currentClaims = claims; }

VariantClaims *kiln::getVariantClaims() { return currentClaims; }

std::vector<std::string> TargetRegistry::getNames() const {
  std::vector<std::string> names;
  for (const auto &entry : backends)
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

llvm::Expected<std::vector<std::pair<const TargetBackend *, TargetAttr>>>
kiln::resolveTargets(MLIRContext *context, const TargetOptions &options) {
  if (options.backends.empty())
    return llvm::createStringError(
        "no target backend requested; pass --kiln-target=NAME");
  context->getOrLoadDialect<KilnDialect>();
  std::vector<std::pair<const TargetBackend *, TargetAttr>> targets;
  for (const std::string &name : options.backends) {
    auto backend = TargetRegistry::get().lookup(name);
    if (!backend)
      return backend.takeError();
    auto attr = (*backend)->getTargetAttr(context, options);
    if (!attr)
      return attr.takeError();
    targets.emplace_back(*backend, *attr);
  }
  return targets;
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
