//===- DeduplicateExecutables.cpp - Share identical executables -----------===//
//
// Executables that differ only in their symbol names compute the same
// thing; dispatches of later ones are pointed at the first.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/DispatchFormation/Passes.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {
#define GEN_PASS_DEF_DEDUPLICATEEXECUTABLESPASS
#include "kiln/DispatchFormation/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The exports of `executable`, in order: its own in source form, the first
/// variant's in target form.
static SmallVector<ExecutableExportOp> getExports(ExecutableOp executable) {
  SmallVector<ExecutableExportOp> exports;
  if (!executable.isTargetForm())
    llvm::append_range(exports, executable.getExportOps());
  else
    llvm::append_range(exports,
                       (*executable.getVariantOps().begin()).getExportOps());
  return exports;
}

/// Renames the exports in `scope` (and the functions that implement them in
/// `module`) to position-based names.
static void canonicalizeExportNames(Operation *scope, ModuleOp module) {
  unsigned position = 0;
  for (Operation &op : scope->getRegion(0).front()) {
    auto exportOp = dyn_cast<ExecutableExportOp>(op);
    if (!exportOp)
      continue;
    auto newName =
        StringAttr::get(scope->getContext(), "export" + Twine(position++));
    Operation *impl =
        module ? SymbolTable::lookupSymbolIn(module, exportOp.getSymNameAttr())
               : nullptr;
    if (impl) {
      (void)SymbolTable::replaceAllSymbolUses(impl, newName, module);
      SymbolTable::setSymbolName(impl, newName);
    }
    exportOp.setSymName(newName);
  }
}

/// The text of `executable` with every name it defines replaced by a
/// position-based one: equal keys mean structurally equal executables.
static std::string getStructuralKey(ExecutableOp executable) {
  OpBuilder builder(executable.getContext());
  auto copy = cast<ExecutableOp>(builder.clone(*executable));
  copy.setSymName("executable");
  if (copy.isTargetForm()) {
    for (auto variant : copy.getVariantOps())
      canonicalizeExportNames(variant, variant.getInnerModule());
  } else {
    canonicalizeExportNames(copy, copy.getSourceModule());
  }
  std::string key;
  llvm::raw_string_ostream os(key);
  copy->print(os, OpPrintingFlags().printGenericOpForm());
  copy->erase();
  return key;
}

namespace {
struct DeduplicateExecutablesPass
    : public kiln::impl::DeduplicateExecutablesPassBase<
          DeduplicateExecutablesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<ExecutableOp> canonical;
    // Old entry point -> the entry point that replaces it.
    DenseMap<Attribute, SymbolRefAttr> replacements;
    for (auto executable :
         llvm::make_early_inc_range(module.getOps<ExecutableOp>())) {
      auto [it, inserted] =
          canonical.try_emplace(getStructuralKey(executable), executable);
      if (inserted)
        continue;
      ExecutableOp kept = it->second;
      for (auto [duplicate, original] :
           llvm::zip_equal(getExports(executable), getExports(kept))) {
        auto oldRef = SymbolRefAttr::get(
            executable.getSymNameAttr(),
            {FlatSymbolRefAttr::get(duplicate.getSymNameAttr())});
        replacements[oldRef] = SymbolRefAttr::get(
            kept.getSymNameAttr(),
            {FlatSymbolRefAttr::get(original.getSymNameAttr())});
      }
      executable.erase();
    }
    if (replacements.empty())
      return;
    module.walk([&](DispatchOp dispatch) {
      if (SymbolRefAttr replacement =
              replacements.lookup(dispatch.getEntryPoint()))
        dispatch.setEntryPointAttr(replacement);
    });
  }
};
} // namespace
