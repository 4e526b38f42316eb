//===- LinkExecutables.cpp - Kernels into the host module -----------------===//
//
// Moves the kernels of every executable's llvm-cpu variant into the host
// module, where host code launches them by their kernel symbol names, and
// lists the object files the variants attach on the host module
// (kiln.objects) for the shared object writer to link in.
//
//===----------------------------------------------------------------------===//

#include "kiln/Serialization/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln {
#define GEN_PASS_DEF_LINKEXECUTABLESPASS
#include "kiln/Serialization/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Adds the object files `variant` attaches to the host module's list (by
/// absolute path, each once), checking that each can be linked.
static LogicalResult collectObjects(ExecutableVariantOp variant,
                                    ModuleOp host) {
  ArrayAttr attached = variant.getObjectsAttr();
  if (!attached || attached.empty())
    return success();
  MLIRContext *context = host.getContext();
  SmallVector<Attribute> objects;
  if (auto existing =
          host->getAttrOfType<ArrayAttr>(KilnDialect::getObjectsAttrName()))
    llvm::append_range(objects, existing);
  for (auto object : attached.getAsRange<ObjectAttr>()) {
    if (llvm::Error error = object.checkLinkable())
      return variant.emitError()
             << "attaches an object file that cannot be linked: "
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

static LogicalResult linkExecutable(ExecutableOp executable, ModuleOp host) {
  SmallVector<ExecutableVariantOp> variants;
  for (auto variant : executable.getVariantOps()) {
    StringRef backend = variant.getTarget().getBackend().getValue();
    if (backend != "llvm-cpu")
      return variant.emitError()
             << "targets '" << backend
             << "', which Kiln cannot write into a module; only llvm-cpu "
                "variants are serialized";
    variants.push_back(variant);
  }
  if (variants.size() != 1)
    return executable.emitError()
           << "has " << variants.size()
           << " llvm-cpu variants; serialization needs exactly one";
  ExecutableVariantOp variant = variants.front();
  if (failed(collectObjects(variant, host)))
    return failure();
  ModuleOp kernels = variant.getInnerModule();
  if (!kernels)
    return variant.emitError() << "has no module to link";
  for (Operation &op : kernels.getBody()->getOperations())
    if (!isa<LLVM::LLVMDialect>(op.getDialect()))
      return op.emitError() << "is not in the LLVM dialect; run the "
                               "executable-codegen phase before serializing";

  // Rename the kernels to the names host code uses, everything else the
  // executable defines so that it cannot clash with other executables.
  SymbolTable kernelTable(kernels);
  for (auto exportOp : variant.getExportOps()) {
    Operation *kernel = kernelTable.lookup(exportOp.getSymName());
    if (!kernel)
      return exportOp.emitError() << "has no kernel to link";
    auto newName = StringAttr::get(
        host.getContext(),
        getKernelSymbolName(SymbolRefAttr::get(
            executable.getSymNameAttr(),
            {FlatSymbolRefAttr::get(exportOp.getSymNameAttr())})));
    if (failed(SymbolTable::replaceAllSymbolUses(kernel, newName, kernels)))
      return kernel->emitError() << "could not be renamed";
    SymbolTable::setSymbolName(kernel, newName);
  }
  SymbolTable hostTable(host);
  // Everything else the executable defines gets a name of its own first,
  // while the uses (calls between its functions) are all still inside it.
  for (Operation &op : kernels.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (!symbol || (func && func.isExternal()) ||
        symbol.getName().starts_with("__kiln_kernel_"))
      continue;
    std::string base = (executable.getSymName() + "_" + symbol.getName()).str();
    std::string name = base;
    for (unsigned suffix = 1;
         hostTable.lookup(name) || kernelTable.lookup(name); ++suffix)
      name = base + "_" + std::to_string(suffix);
    auto newName = StringAttr::get(host.getContext(), name);
    if (failed(SymbolTable::replaceAllSymbolUses(&op, newName, kernels)))
      return op.emitError() << "could not be renamed";
    kernelTable.remove(&op);
    symbol.setName(newName);
    kernelTable.insert(&op);
  }
  for (Operation &op :
       llvm::make_early_inc_range(kernels.getBody()->getOperations())) {
    auto symbol = dyn_cast<SymbolOpInterface>(op);
    if (!symbol) {
      op.moveBefore(host.getBody(), host.getBody()->end());
      continue;
    }
    auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (func && func.isExternal()) {
      // External declarations (malloc, expf, ...) are shared.
      auto existing = hostTable.lookup<LLVM::LLVMFuncOp>(func.getName());
      if (!existing) {
        op.moveBefore(host.getBody(), host.getBody()->end());
        hostTable.insert(&op);
      } else if (existing.getFunctionType() != func.getFunctionType()) {
        return func.emitError() << "declares @" << func.getName()
                                << " with another type than the host does";
      } else {
        op.erase();
      }
      continue;
    }
    // The host declared the kernels it launches; the definition replaces
    // the declaration.
    if (auto declaration =
            hostTable.lookup<LLVM::LLVMFuncOp>(symbol.getName())) {
      if (!declaration.isExternal())
        return op.emitError() << "@" << symbol.getName()
                              << " is already defined in the module";
      hostTable.erase(declaration);
    }
    op.moveBefore(host.getBody(), host.getBody()->end());
    if (func)
      func.setLinkage(LLVM::Linkage::Internal);
    hostTable.insert(&op);
  }
  executable.erase();
  return success();
}

namespace {
struct LinkExecutablesPass
    : public kiln::impl::LinkExecutablesPassBase<LinkExecutablesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto executable :
         llvm::make_early_inc_range(module.getOps<ExecutableOp>()))
      if (failed(linkExecutable(executable, module)))
        return signalPassFailure();
  }
};
} // namespace
