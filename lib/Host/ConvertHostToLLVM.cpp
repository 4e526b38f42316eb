//===- ConvertHostToLLVM.cpp - Host functions to the LLVM dialect ---------===//
//
// Lowers host functions, kiln.launch included, to the LLVM dialect in one
// conversion; executables are left alone.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTHOSTTOLLVMPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The kernel's declaration in the host module, created on first use.
static LLVM::LLVMFuncOp declareKernel(ModuleOp module, StringRef name) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  MLIRContext *context = module.getContext();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Type i32Type = IntegerType::get(context, 32);
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context), {ptrType, i32Type, i32Type, i32Type});
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// A constant operand widened to the 64 bits the ABI passes: integers
/// zero-extended, floats as their bit pattern.
static Value widenConstant(OpBuilder &builder, Location loc, Value value,
                           Type originalType) {
  Type i64Type = builder.getI64Type();
  if (originalType.isIndex())
    return value; // already i64 after conversion
  unsigned width = originalType.getIntOrFloatBitWidth();
  if (isa<FloatType>(originalType))
    value = LLVM::BitcastOp::create(builder, loc,
                                    builder.getIntegerType(width), value);
  if (width < 64)
    value = LLVM::ZExtOp::create(builder, loc, i64Type, value);
  return value;
}

namespace {
struct LaunchOpLowering : public ConvertOpToLLVMPattern<LaunchOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(LaunchOp launch, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = launch.getLoc();
    MLIRContext *context = launch.getContext();
    if (!adaptor.getRuntime())
      return rewriter.notifyMatchFailure(launch, "no runtime context");
    Type ptrType = LLVM::LLVMPointerType::get(context);
    Type i32Type = rewriter.getI32Type();
    Type i64Type = rewriter.getI64Type();

    auto module = launch->getParentOfType<ModuleOp>();
    LLVM::LLVMFuncOp kernel =
        declareKernel(module, getKernelSymbolName(launch.getEntryPoint()));
    Value kernelAddress =
        LLVM::AddressOfOp::create(rewriter, loc, ptrType, kernel.getName());

    Value stack = LLVM::StackSaveOp::create(rewriter, loc, ptrType);
    Value one = LLVM::ConstantOp::create(rewriter, loc, i64Type, 1);

    // One pointer per binding, to the binding's first element.
    SmallVector<Value> buffers(adaptor.getInputs());
    llvm::append_range(buffers, adaptor.getOutputs());
    SmallVector<Type> bufferTypes(launch.getInputs().getTypes());
    llvm::append_range(bufferTypes, launch.getOutputs().getTypes());
    auto bindingsType =
        LLVM::LLVMArrayType::get(ptrType, std::max<size_t>(1, buffers.size()));
    Value bindings = LLVM::AllocaOp::create(rewriter, loc, ptrType,
                                            bindingsType, one, /*alignment=*/8);
    for (auto [index, buffer, type] :
         llvm::enumerate(buffers, bufferTypes)) {
      MemRefDescriptor descriptor(buffer);
      Type elementType = typeConverter->convertType(
          cast<MemRefType>(type).getElementType());
      Value base = descriptor.alignedPtr(rewriter, loc);
      Value pointer = LLVM::GEPOp::create(rewriter, loc, ptrType, elementType,
                                          base, descriptor.offset(rewriter, loc));
      Value slot = LLVM::GEPOp::create(
          rewriter, loc, ptrType, ptrType, bindings,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      LLVM::StoreOp::create(rewriter, loc, pointer, slot);
    }

    // The constants, 64 bits each.
    auto constantsType = LLVM::LLVMArrayType::get(
        i64Type, std::max<size_t>(1, launch.getConstants().size()));
    Value constants = LLVM::AllocaOp::create(
        rewriter, loc, ptrType, constantsType, one, /*alignment=*/8);
    for (auto [index, value, type] :
         llvm::enumerate(adaptor.getConstants(),
                         launch.getConstants().getTypes())) {
      Value slot = LLVM::GEPOp::create(
          rewriter, loc, ptrType, i64Type, constants,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      LLVM::StoreOp::create(rewriter, loc,
                            widenConstant(rewriter, loc, value, type), slot);
    }

    SmallVector<Value> counts;
    for (Value count : {adaptor.getWorkgroupX(), adaptor.getWorkgroupY(),
                        adaptor.getWorkgroupZ()})
      counts.push_back(LLVM::TruncOp::create(rewriter, loc, i32Type, count));

    // context->dispatch(context, kernel, x, y, z, bindings, constants)
    Value runtime = adaptor.getRuntime();
    Value dispatch = LLVM::LoadOp::create(rewriter, loc, ptrType, runtime);
    auto dispatchType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(context),
        {ptrType, ptrType, i32Type, i32Type, i32Type, ptrType, ptrType});
    LLVM::CallOp::create(rewriter, loc, dispatchType,
                         ValueRange{dispatch, runtime, kernelAddress,
                                    counts[0], counts[1], counts[2], bindings,
                                    constants});
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
    rewriter.eraseOp(launch);
    return success();
  }
};

struct ConvertHostToLLVMPass
    : public kiln::impl::ConvertHostToLLVMPassBase<ConvertHostToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    LowerToLLVMOptions options(context);
    LLVMTypeConverter converter(context, options);
    RewritePatternSet patterns(context);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    patterns.add<LaunchOpLowering>(converter);

    LLVMConversionTarget target(*context);
    target.addLegalOp<ModuleOp>();
    target.addLegalOp<ExecutableOp>();
    target.markOpRecursivelyLegal<ExecutableOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
