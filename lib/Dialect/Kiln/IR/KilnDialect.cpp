//===- KilnDialect.cpp - Kiln dialect ---------------------------*- C++ -*-===//
//
// Registers the kiln dialect's ops and attributes and verifies the
// discardable `kiln.*` attributes other ops carry.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Dialect/Kiln/IR/KilnAttrs.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;
using namespace kiln;

#include "kiln/Dialect/Kiln/IR/KilnOpsDialect.cpp.inc"

void KilnDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "kiln/Dialect/Kiln/IR/KilnOps.cpp.inc"
      >();
  registerAttributes();
}

LogicalResult KilnDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == getLoweringConfigAttrName()) {
    auto config = dyn_cast<LoweringConfigAttr>(attr.getValue());
    if (!config)
      return op->emitOpError()
             << "'" << name << "' must be a #kiln.lowering_config, got "
             << attr.getValue();
    auto tilingOp = dyn_cast<TilingInterface>(op);
    if (!tilingOp)
      return op->emitOpError()
             << "carries '" << name
             << "' but has no iteration space to tile (it does not "
                "implement TilingInterface)";
    return config.verifyForLoopCount([&] { return op->emitOpError(); },
                                     tilingOp.getLoopIteratorTypes().size());
  }
  if (name == getTargetAttrName()) {
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a #kiln.target, got "
             << attr.getValue();
    return success();
  }
  if (name == getObjectsAttrName()) {
    // On the host module after linking; on an executable in source form,
    // for each of its variants (kiln.external_dispatch).
    auto objects = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp, ExecutableOp>(op) || !objects ||
        !llvm::all_of(objects, llvm::IsaPred<ObjectAttr>))
      return op->emitOpError()
             << "'" << name
             << "' must be an array of #kiln.object on a module or an "
                "executable, got "
             << attr.getValue();
    return success();
  }
  if (name == getTuningSpecVersionAttrName()) {
    if (!isa<ModuleOp>(op) || !isa<IntegerAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be an integer on a module, got "
             << attr.getValue();
    return success();
  }
  if (name == getCheckedIndicesAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) ||
        op->getName().getStringRef() != "tensor.extract")
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on a "
                                  "tensor.extract";
    return success();
  }
  if (name == getTuningSpecEntrypointAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == getTuningSpecExtendsAttrName()) {
    if (!isa<ModuleOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a string on a module, got "
             << attr.getValue();
    return success();
  }
  if (name == getTuningSpecSourceAttrName()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a string, got " << attr.getValue();
    return success();
  }
  if (name == getConfiguredByAttrName()) {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name << "' must be a dictionary, got "
                               << attr.getValue();
    return success();
  }
  if (name == getTuningLibraryAttrName()) {
    if (!isa<ModuleOp, ExecutableVariantOp>(op) ||
        !isa<DenseResourceElementsAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name
             << "' must be a dense resource (the library's bytecode) on a "
                "module or a variant";
    return success();
  }
  if (name == getVariantTargetsAttrName()) {
    auto targets = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !targets || targets.empty() ||
        !llvm::all_of(targets, [](Attribute a) { return isa<TargetAttr>(a); }))
      return op->emitOpError()
             << "'" << name
             << "' must be a non-empty array of #kiln.target on a module, "
                "got "
             << attr.getValue();
    for (auto [index, target] : llvm::enumerate(targets))
      if (llvm::is_contained(targets.getValue().take_front(index), target))
        return op->emitOpError()
               << "'" << name << "' lists " << target << " twice";
    return success();
  }
  if (name == getWorkgroupScratchBytesAttrName()) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FunctionOpInterface, ExecutableExportOp>(op) || !bytes ||
        bytes.getValue().isNegative())
      return op->emitOpError() << "'" << name
                               << "' must be a non-negative integer on a "
                                  "function or a kiln.executable.export, got "
                               << attr.getValue();
    return success();
  }
  if (name == getHostArenaAttrName()) {
    auto bytes = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !bytes || bytes.size() != 2 ||
        bytes[0] < 0 || bytes[1] < 0)
      return op->emitOpError()
             << "'" << name
             << "' must be [arena bytes, bytes apart], two non-negative "
                "integers, on a function, got "
             << attr.getValue();
    return success();
  }
  if (name == getFlopsAttrName()) {
    auto flops = dyn_cast<IntegerAttr>(attr.getValue());
    if (!flops || flops.getValue().isNegative())
      return op->emitOpError()
             << "'" << name << "' must be a non-negative integer, got "
             << attr.getValue();
    return success();
  }
  if (name == getExportNameAttrName()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a string, got " << attr.getValue();
    return success();
  }
  if (name == getSignatureAttrName()) {
    auto type = dyn_cast<TypeAttr>(attr.getValue());
    if (!type || !isa<FunctionType>(type.getValue()))
      return op->emitOpError()
             << "'" << name << "' must be a function type, got "
             << attr.getValue();
    return success();
  }
  if (name == getInputNamesAttrName() || name == getOutputNamesAttrName()) {
    auto names = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !names ||
        !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError()
             << "'" << name << "' must be an array of strings on a function, "
             << "got " << attr.getValue();
    return success();
  }
  if (name == getExternsAttrName()) {
    // [{name = "...", kind = "host" | "kernel", signature = "..."}, ...]
    auto isEntry = [](Attribute entry) {
      auto dictionary = dyn_cast<DictionaryAttr>(entry);
      if (!dictionary || dictionary.size() != 3)
        return false;
      auto kind = dictionary.getAs<StringAttr>("kind");
      return dictionary.getAs<StringAttr>("name") &&
             dictionary.getAs<StringAttr>("signature") && kind &&
             (kind.getValue() == "host" || kind.getValue() == "kernel");
    };
    auto entries = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp, ExecutableOp, ExecutableVariantOp>(op) || !entries ||
        !llvm::all_of(entries, isEntry))
      return op->emitOpError()
             << "'" << name
             << "' must be an array of {name, kind = \"host\" or "
                "\"kernel\", signature} on a module, an executable or a "
                "variant, got "
             << attr.getValue();
    return success();
  }
  // Arrays of names on the module: imports, and the plugins it needs.
  if (name == getImportsAttrName() || name == getPluginsAttrName()) {
    auto names = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !names ||
        !llvm::all_of(names, [](Attribute a) { return isa<StringAttr>(a); }))
      return op->emitOpError()
             << "'" << name << "' must be an array of "
             << (name == getPluginsAttrName() ? "plugin ids" : "strings")
             << " on a module, got " << attr.getValue();
    return success();
  }
  if (name == getClaimedByAttrName()) {
    if (!isa<ExecutableVariantOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a string (a plugin id) on a "
                                  "kiln.executable.variant, got "
                               << attr.getValue();
    return success();
  }
  if (name == getObjectCodeAttrName()) {
    auto isObject = llvm::IsaPred<DenseResourceElementsAttr>;
    auto objects = dyn_cast<ArrayAttr>(attr.getValue());
    if (isa<ExecutableVariantOp>(op) ? !isObject(attr.getValue())
                                     : !isa<ModuleOp>(op) || !objects ||
                                           !llvm::all_of(objects, isObject))
      return op->emitOpError()
             << "'" << name
             << "' must be a dense resource of bytes on a "
                "kiln.executable.variant, or an array of them on a module, "
                "got "
             << attr.getValue();
    return success();
  }
  if (name == getObjectCacheKeyAttrName() || name == getPhaseAttrName()) {
    bool onVariant = name == getObjectCacheKeyAttrName();
    if (!isa<StringAttr>(attr.getValue()) ||
        (onVariant ? !isa<ExecutableVariantOp>(op) : !isa<ModuleOp>(op)))
      return op->emitOpError()
             << "'" << name << "' must be a string on "
             << (onVariant ? "a kiln.executable.variant" : "a module")
             << ", got " << attr.getValue();
    return success();
  }
  if (name == getRootOpAttrName()) {
    if (!isa<ExecutableOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a string on a kiln.executable, "
                                  "got "
                               << attr.getValue();
    return success();
  }
  if (name == getDispatchIdAttrName()) {
    auto id = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<LaunchOp>(op) || !id || id.getValue().isNegative() ||
        id.getValue().getActiveBits() > 32)
      return op->emitOpError()
             << "'" << name
             << "' must be an integer from 0 to 2^32 - 1 on a kiln.launch, got "
             << attr.getValue();
    return success();
  }
  if (name == getDispatchTableAttrName()) {
    // [{name = "...", root = "...", flops = N, bytes = N}, ...]
    auto isEntry = [](Attribute entry) {
      auto dictionary = dyn_cast<DictionaryAttr>(entry);
      if (!dictionary || dictionary.size() != 4)
        return false;
      auto isCount = [&](StringRef key) {
        auto count = dictionary.getAs<IntegerAttr>(key);
        return count && !count.getValue().isNegative();
      };
      return dictionary.getAs<StringAttr>("name") &&
             dictionary.getAs<StringAttr>("root") && isCount("flops") &&
             isCount("bytes");
    };
    auto entries = dyn_cast<ArrayAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !entries || !llvm::all_of(entries, isEntry))
      return op->emitOpError()
             << "'" << name
             << "' must be an array of {name, root, flops, bytes} "
                "dictionaries on a module, got "
             << attr.getValue();
    return success();
  }
  return op->emitOpError()
         << "has unknown kiln attribute '" << name << "' (known: '"
         << getLoweringConfigAttrName() << "', '" << getTargetAttrName()
         << "', '" << getFlopsAttrName() << "', '" << getSignatureAttrName()
         << "', '" << getInputNamesAttrName() << "', '"
         << getOutputNamesAttrName() << "', '" << getExportNameAttrName()
         << "', '" << getImportsAttrName() << "', '" << getClaimedByAttrName()
         << "', '" << getPluginsAttrName() << "', '" << getObjectsAttrName()
         << "', '" << getTuningSpecVersionAttrName() << "', '"
         << getTuningSpecEntrypointAttrName() << "', '"
         << getTuningSpecExtendsAttrName() << "', '"
         << getTuningSpecSourceAttrName() << "', '" << getConfiguredByAttrName()
         << "', '" << getTuningLibraryAttrName() << "', '"
         << getWorkgroupScratchBytesAttrName() << "', '"
         << getHostArenaAttrName() << "', '" << getObjectCodeAttrName()
         << "', '" << getObjectCacheKeyAttrName() << "', '"
         << getPhaseAttrName() << "', '" << getRootOpAttrName() << "', '"
         << getDispatchIdAttrName() << "', '" << getDispatchTableAttrName()
         << "', '" << getVariantTargetsAttrName() << "', '"
         << getExternsAttrName() << "')";
}
