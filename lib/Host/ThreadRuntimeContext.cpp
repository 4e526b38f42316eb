//===- ThreadRuntimeContext.cpp - The runtime context into host code ------===//
//
// Every host function receives the runtime's kiln_host_context as its first
// argument and hands it to the functions it calls and the kernels it
// launches.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace kiln {
#define GEN_PASS_DEF_THREADRUNTIMECONTEXTPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct ThreadRuntimeContextPass
    : public kiln::impl::ThreadRuntimeContextPassBase<
          ThreadRuntimeContextPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Type ptrType = LLVM::LLVMPointerType::get(&getContext());
    // The runtime always passes a context, and saying so keeps LLVM from
    // proving it again at each of a function's thousands of uses (which
    // InstCombine does in time quadratic in the size of a block).
    Builder builder(&getContext());
    DictionaryAttr contextAttrs = builder.getDictionaryAttr(
        {builder.getNamedAttr(LLVM::LLVMDialect::getNonNullAttrName(),
                              builder.getUnitAttr()),
         builder.getNamedAttr(LLVM::LLVMDialect::getNoUndefAttrName(),
                              builder.getUnitAttr())});
    SmallVector<func::FuncOp> hostFuncs(module.getOps<func::FuncOp>());
    DenseSet<StringAttr> hostNames;
    for (func::FuncOp func : hostFuncs) {
      if (func.isExternal())
        continue;
      hostNames.insert(func.getSymNameAttr());
      if (failed(func.insertArgument(0, ptrType, contextAttrs, func.getLoc())))
        return signalPassFailure();
    }
    for (func::FuncOp func : hostFuncs) {
      if (func.isExternal())
        continue;
      Value runtime = func.getArgument(0);
      func.walk([&](Operation *op) {
        if (auto call = dyn_cast<func::CallOp>(op)) {
          if (hostNames.contains(call.getCalleeAttr().getAttr()))
            call->insertOperands(0, runtime);
        } else if (auto launch = dyn_cast<LaunchOp>(op)) {
          launch.getRuntimeMutable().assign(runtime);
        } else if (auto check = dyn_cast<CheckOp>(op)) {
          check.getRuntimeMutable().assign(runtime);
        } else if (auto assertion = dyn_cast<AssertOp>(op)) {
          assertion.getRuntimeMutable().assign(runtime);
        } else if (auto index = dyn_cast<VariantIndexOp>(op)) {
          index.getRuntimeMutable().assign(runtime);
        } else if (auto call = dyn_cast<CallExternOp>(op)) {
          call.getRuntimeMutable().assign(runtime);
        }
      });
    }
  }
};
} // namespace
