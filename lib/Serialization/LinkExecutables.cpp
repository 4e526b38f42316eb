//===- LinkExecutables.cpp - Kernels into the host module -----------------===//
//
// Lists every variant's object code (kiln.object_code) and the files its
// target backend links beside it (TargetBackend::getLinkInputs: by default
// the object files the variant attaches) on the host module (kiln.objects),
// for the shared object writer to link with the host code, and erases the
// executables.
//
//===----------------------------------------------------------------------===//

#include "kiln/Serialization/Passes.h"
#include "kiln/Target/TargetBackend.h"

namespace kiln {
#define GEN_PASS_DEF_LINKEXECUTABLESPASS
#include "kiln/Serialization/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Adds the files `variant`'s backend links into the module (by default
/// the object files it attaches) to the host module's list, by absolute
/// path, each once.
static LogicalResult collectObjects(ExecutableVariantOp variant,
                                    ModuleOp host) {
  MLIRContext *context = host.getContext();
  auto backend = lookupBackend(context, variant.getTarget());
  if (!backend)
    return variant.emitError() << llvm::toString(backend.takeError());
  std::vector<std::string> files;
  if (llvm::Error error = (*backend)->getLinkInputs(variant, files))
    return variant.emitError() << llvm::toString(std::move(error));
  if (files.empty())
    return success();
  SmallVector<Attribute> objects;
  if (auto existing =
          host->getAttrOfType<ArrayAttr>(KilnDialect::getObjectsAttrName()))
    llvm::append_range(objects, existing);
  for (const std::string &file : files) {
    auto object = ObjectAttr::get(context, StringAttr::get(context, file));
    if (llvm::Error error = object.checkLinkable())
      return variant.emitError() << "links a file that cannot be linked: "
                                 << llvm::toString(std::move(error));
    auto absolute = ObjectAttr::get(
        context, StringAttr::get(context, object.getAbsolutePath()));
    if (!llvm::is_contained(objects, absolute))
      objects.push_back(absolute);
  }
  host->setAttr(KilnDialect::getObjectsAttrName(),
                ArrayAttr::get(context, objects));
  return success();
}

static LogicalResult linkExecutable(ExecutableOp executable, ModuleOp host,
                                    SmallVectorImpl<Attribute> &objectCode) {
  for (auto variant : executable.getVariantOps()) {
    Attribute object = variant->getAttr(KilnDialect::getObjectCodeAttrName());
    if (!object)
      return variant.emitError()
             << "has no object code; run kiln-serialize-executables first";
    if (failed(collectObjects(variant, host)))
      return failure();
    objectCode.push_back(object);
  }
  executable.erase();
  return success();
}

namespace {
struct LinkExecutablesPass
    : public kiln::impl::LinkExecutablesPassBase<LinkExecutablesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Attribute> objectCode;
    for (auto executable :
         llvm::make_early_inc_range(module.getOps<ExecutableOp>()))
      if (failed(linkExecutable(executable, module, objectCode)))
        return signalPassFailure();
    if (!objectCode.empty())
      module->setAttr(KilnDialect::getObjectCodeAttrName(),
                      ArrayAttr::get(&getContext(), objectCode));
  }
};
} // namespace
