//===- BufferizeHost.cpp - Host functions onto buffers --------------------===//
//
// Checks and records the signatures the runtime will see, then bufferizes
// the host functions with upstream's one-shot module bufferization.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_BUFFERIZEHOSTPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Element types the runtime has buffers of (kiln_element_type).
static bool isRuntimeElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

/// Checks that the runtime can call `func`: ranked tensors in and out.
static LogicalResult checkSignature(func::FuncOp func) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    // The runtime's buffers hold at most KILN_MAX_RANK dimensions.
    constexpr int64_t kMaxRank = 16;
    if (tensor && tensor.getRank() > kMaxRank)
      return func.emitError()
             << "public function @" << func.getName() << " has " << what << " #"
             << index << " of rank " << tensor.getRank()
             << "; the runtime passes tensors of rank at most " << kMaxRank
             << " (reshape it, or make the function private)";
    if (tensor && !tensor.getEncoding() &&
        isRuntimeElementType(tensor.getElementType()))
      return success();
    return func.emitError()
           << "public function @" << func.getName() << " has " << what << " #"
           << index << " of type " << type
           << "; the runtime passes ranked tensors of i1, i8, i16, i32, i64, "
              "f16, bf16, f32 or f64 (wrap scalars in 0-d tensors, or make "
              "the function private)";
  };
  // The module's metadata lists functions in whitespace-separated text.
  if (llvm::any_of(func.getName(),
                   [](char c) { return !llvm::isPrint(c) || c == ' '; }))
    return func.emitError()
           << "public function @\"" << func.getName()
           << "\" cannot be exported: the runtime needs names without spaces "
              "or control characters (rename it, or make it private)";
  for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
    if (failed(check(type, "argument", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(func.getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  return success();
}

/// FLOPs of one call of `func`: the sum over its dispatches, when each of
/// them counts its FLOPs and runs exactly once (none in a loop or a branch,
/// no calls to other functions); 0 when unknown.
static int64_t countFlops(func::FuncOp func) {
  int64_t total = 0;
  bool known = true;
  func.walk([&](Operation *op) {
    if (isa<func::CallOp>(op)) {
      known = false;
    } else if (auto dispatch = dyn_cast<DispatchOp>(op)) {
      auto flops =
          dispatch->getAttrOfType<IntegerAttr>(KilnDialect::getFlopsAttrName());
      if (flops && dispatch->getParentOp() != func.getOperation())
        known = false;
      else if (flops && llvm::AddOverflow(total, flops.getInt(), total))
        known = false; // more than 64 bits can count
    }
  });
  return known ? total : 0;
}

namespace {
struct BufferizeHostPass
    : public kiln::impl::BufferizeHostPassBase<BufferizeHostPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    BufferizeHostPassBase::getDependentDialects(registry);
    arith::registerBufferizableOpInterfaceExternalModels(registry);
    bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
        registry);
    scf::registerBufferizableOpInterfaceExternalModels(registry);
    tensor::registerBufferizableOpInterfaceExternalModels(registry);
    registerBufferizableOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isPrivate() || func.isExternal())
        continue;
      if (failed(checkSignature(func)))
        return signalPassFailure();
      func->setAttr(KilnDialect::getSignatureAttrName(),
                    TypeAttr::get(func.getFunctionType()));
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    UnitAttr::get(context));
      if (int64_t flops = countFlops(func))
        func->setAttr(KilnDialect::getFlopsAttrName(),
                      IntegerAttr::get(IntegerType::get(context, 64), flops));
    }

    // Barriers have done their job: nothing folds on the host any more.
    module.walk([](OptimizationBarrierOp barrier) {
      barrier.replaceAllUsesWith(barrier.getOperands());
      barrier.erase();
    });

    bufferization::OneShotBufferizationOptions options;
    options.bufferizeFunctionBoundaries = true;
    options.setFunctionBoundaryTypeConversion(
        bufferization::LayoutMapOption::IdentityLayoutMap);
    options.bufferAlignment = 64;
    // A loop's next iteration may get a new buffer (the deallocation
    // pipeline frees the old one).
    options.allowReturnAllocsFromLoops = true;
    // Executables were lowered on their own.
    options.opFilter.denyOperation([](Operation *op) {
      return op->getParentOfType<ExecutableOp>() != nullptr;
    });
    bufferization::BufferizationState state;
    if (failed(
            bufferization::runOneShotModuleBufferize(module, options, state)))
      return signalPassFailure();
  }
};
} // namespace
