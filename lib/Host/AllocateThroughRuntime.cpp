//===- AllocateThroughRuntime.cpp - Host buffers from the runtime ---------===//
//
// memref.alloc and memref.dealloc in host functions become kiln.alloc and
// kiln.dealloc on the function's runtime context, so that every host buffer
// comes from the runtime, which ends the call with an error when memory
// runs out.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln {
#define GEN_PASS_DEF_ALLOCATETHROUGHRUNTIMEPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
struct AllocateThroughRuntimePass
    : public kiln::impl::AllocateThroughRuntimePassBase<
          AllocateThroughRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    IRRewriter rewriter(&getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (func.getNumArguments() == 0 ||
          !isa<LLVM::LLVMPointerType>(func.getArgument(0).getType())) {
        func.emitOpError() << "does not take the runtime context; run "
                              "kiln-thread-runtime-context first";
        return signalPassFailure();
      }
      Value runtime = func.getArgument(0);
      WalkResult result = func.walk([&](Operation *op) {
        rewriter.setInsertionPoint(op);
        if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
          if (!alloc.getSymbolOperands().empty() ||
              !alloc.getType().getLayout().isIdentity()) {
            alloc.emitOpError() << "cannot be allocated by the runtime: it "
                                   "allocates identity-layout buffers";
            return WalkResult::interrupt();
          }
          rewriter.replaceOpWithNewOp<AllocOp>(alloc, alloc.getType(),
                                               alloc.getDynamicSizes(), runtime,
                                               alloc.getAlignmentAttr());
        } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
          rewriter.replaceOpWithNewOp<DeallocOp>(dealloc, dealloc.getMemref(),
                                                 runtime);
        }
        return WalkResult::advance();
      });
      if (result.wasInterrupted())
        return signalPassFailure();
    }
  }
};
} // namespace
