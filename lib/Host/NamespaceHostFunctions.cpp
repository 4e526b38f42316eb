//===- NamespaceHostFunctions.cpp - Host functions out of C's way ---------===//
//
// Renames every host function with a body to kiln.fn.NAME, so that no
// name a program chooses (malloc, kiln_entry_0, _mlir_ciface_f, a kernel's)
// meets a symbol the module defines or calls; public ones keep their name
// for the runtime in kiln.export_name.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln {
#define GEN_PASS_DEF_NAMESPACEHOSTFUNCTIONSPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct NamespaceHostFunctionsPass
    : public kiln::impl::NamespaceHostFunctionsPassBase<
          NamespaceHostFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        functions.push_back(func);
    for (func::FuncOp func : functions) {
      if (func.isPublic())
        func->setAttr(KilnDialect::getExportNameAttrName(),
                      func.getSymNameAttr());
      std::string base = ("kiln.fn." + func.getName()).str();
      std::string name = base;
      for (unsigned suffix = 1; symbols.lookup(name); ++suffix)
        name = base + "." + std::to_string(suffix);
      if (failed(symbols.rename(func, StringAttr::get(&getContext(), name)))) {
        func.emitError() << "cannot be renamed to '" << name << "'";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
