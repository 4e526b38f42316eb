//===- ConvertHostToLLVM.cpp - Host functions to the LLVM dialect ---------===//
//
// Lowers host functions, kiln.launch, kiln.check and host buffers
// included, to the LLVM dialect in one conversion; executables are left
// alone.
//
//===----------------------------------------------------------------------===//

#include "RuntimeImports.h"
#include "kiln/Host/Passes.h"
#include "kiln_module_abi.h"
#include "kiln_runtime.h"
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

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_CONVERTHOSTTOLLVMPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The kernel's declaration in the host module, created on first use.
static LLVM::LLVMFuncOp declareKernel(HostSymbols &symbols, StringRef name) {
  MLIRContext *context = symbols.getModule().getContext();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Type i32Type = IntegerType::get(context, 32);
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context),
      {ptrType, i32Type, i32Type, i32Type, ptrType});
  return symbols.declareFunction(name, type);
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
    value = LLVM::BitcastOp::create(builder, loc, builder.getIntegerType(width),
                                    value);
  if (width < 64)
    value = LLVM::ZExtOp::create(builder, loc, i64Type, value);
  return value;
}

namespace {
struct LaunchOpLowering : public ConvertOpToLLVMPattern<LaunchOp> {
  LaunchOpLowering(const LLVMTypeConverter &converter, HostSymbols &symbols)
      : ConvertOpToLLVMPattern(converter), symbols(symbols) {}

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

    LLVM::LLVMFuncOp kernel =
        declareKernel(symbols, getKernelSymbolName(launch.getEntryPoint()));
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
    for (auto [index, buffer, type] : llvm::enumerate(buffers, bufferTypes)) {
      MemRefDescriptor descriptor(buffer);
      Type elementType =
          typeConverter->convertType(cast<MemRefType>(type).getElementType());
      Value base = descriptor.alignedPtr(rewriter, loc);
      Value pointer =
          LLVM::GEPOp::create(rewriter, loc, ptrType, elementType, base,
                              descriptor.offset(rewriter, loc));
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
    for (auto [index, value, type] : llvm::enumerate(
             adaptor.getConstants(), launch.getConstants().getTypes())) {
      Value slot = LLVM::GEPOp::create(
          rewriter, loc, ptrType, i64Type, constants,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
      LLVM::StoreOp::create(rewriter, loc,
                            widenConstant(rewriter, loc, value, type), slot);
    }

    // The runtime takes 32-bit unsigned counts: a negative count (a
    // preprocessed executable's workgroup region may compute one) runs no
    // workgroup instead of four billion, and one past 2^32 - 1 saturates
    // instead of wrapping to a few.
    SmallVector<Value> counts;
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i64Type, 0);
    Value maxCount = LLVM::ConstantOp::create(
        rewriter, loc, i64Type, std::numeric_limits<uint32_t>::max());
    for (Value count : {adaptor.getWorkgroupX(), adaptor.getWorkgroupY(),
                        adaptor.getWorkgroupZ()}) {
      Value nonNegative = LLVM::SMaxOp::create(rewriter, loc, count, zero);
      Value clamped =
          LLVM::UMinOp::create(rewriter, loc, nonNegative, maxCount);
      counts.push_back(LLVM::TruncOp::create(rewriter, loc, i32Type, clamped));
    }

    // The scratch each workgroup needs, as the kernel's lowering recorded.
    uint64_t scratchBytes = 0;
    // With several variants, the launched one's (@executable::@variant::
    // @export).
    ArrayRef<FlatSymbolRefAttr> nested =
        launch.getEntryPoint().getNestedReferences();
    StringRef variantName =
        nested.size() == 2 ? nested.front().getValue() : StringRef();
    if (ExecutableOp executable = lookupExecutable(
            launch, launch.getEntryPoint(), symbols.getCollection()))
      scratchBytes = getWorkgroupScratchBytes(
          executable, launch.getEntryPoint().getLeafReference(), variantName);
    Value scratch = LLVM::ConstantOp::create(
        rewriter, loc, i64Type, static_cast<int64_t>(scratchBytes));

    // The kernel's row in the dispatch table (kiln-number-dispatches).
    uint32_t dispatchId = KILN_DISPATCH_UNKNOWN;
    if (auto id = launch->getAttrOfType<IntegerAttr>(
            KilnDialect::getDispatchIdAttrName()))
      dispatchId = static_cast<uint32_t>(id.getValue().getZExtValue());
    Value id = LLVM::ConstantOp::create(rewriter, loc, i32Type,
                                        rewriter.getI32IntegerAttr(dispatchId));

    // context->dispatch(context, kernel, dispatch, x, y, z, bindings,
    //                   constants, scratch_bytes)
    Value runtime = adaptor.getRuntime();
    Value dispatch = LLVM::LoadOp::create(rewriter, loc, ptrType, runtime);
    auto dispatchType = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(context),
        {ptrType, ptrType, i32Type, i32Type, i32Type, i32Type, ptrType, ptrType,
         i64Type});
    LLVM::CallOp::create(rewriter, loc, dispatchType,
                         ValueRange{dispatch, runtime, kernelAddress, id,
                                    counts[0], counts[1], counts[2], bindings,
                                    constants, scratch});
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
    rewriter.eraseOp(launch);
    return success();
  }

private:
  HostSymbols &symbols;
};

/// The kiln_element_type code of `type`.
static int32_t getElementTypeCode(Type type) {
  if (type.isInteger(1))
    return KILN_ELEMENT_I1;
  if (type.isInteger(8))
    return KILN_ELEMENT_I8;
  if (type.isInteger(16))
    return KILN_ELEMENT_I16;
  if (type.isInteger(32))
    return KILN_ELEMENT_I32;
  if (type.isInteger(64))
    return KILN_ELEMENT_I64;
  if (type.isF16())
    return KILN_ELEMENT_F16;
  if (type.isBF16())
    return KILN_ELEMENT_BF16;
  if (type.isF32())
    return KILN_ELEMENT_F32;
  if (type.isF64())
    return KILN_ELEMENT_F64;
  return KILN_ELEMENT_INVALID;
}

/// The LLVM type of a kiln_tensor_view.
static LLVM::LLVMStructType getTensorViewType(MLIRContext *context) {
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Type i32Type = IntegerType::get(context, 32);
  return LLVM::LLVMStructType::getLiteral(context,
                                          {ptrType, ptrType, i32Type, i32Type});
}

/// A kiln_tensor_view of `original` (`converted` once lowered): a memref's
/// dense data and sizes, or a scalar in a stack slot (an index as i64);
/// all null and zero without a value.
static Value buildTensorView(OpBuilder &rewriter, Location loc,
                             const LLVMTypeConverter &converter, Value original,
                             Value converted) {
  MLIRContext *context = rewriter.getContext();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Type i32Type = rewriter.getI32Type();
  Type i64Type = rewriter.getI64Type();
  auto viewType = getTensorViewType(context);
  Value one = LLVM::ConstantOp::create(rewriter, loc, i64Type, 1);
  Value null = LLVM::ZeroOp::create(rewriter, loc, ptrType);

  Value view = LLVM::PoisonOp::create(rewriter, loc, viewType);
  if (!original) {
    view = LLVM::InsertValueOp::create(rewriter, loc, view, null,
                                       ArrayRef<int64_t>{0});
    view = LLVM::InsertValueOp::create(rewriter, loc, view, null,
                                       ArrayRef<int64_t>{1});
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i32Type, 0);
    view = LLVM::InsertValueOp::create(rewriter, loc, view, zero,
                                       ArrayRef<int64_t>{2});
    return LLVM::InsertValueOp::create(rewriter, loc, view, zero,
                                       ArrayRef<int64_t>{3});
  }
  Type elementType = getElementTypeOrSelf(original.getType());
  Value data, dims = null;
  int64_t rank = 0;
  if (auto memref = dyn_cast<MemRefType>(original.getType())) {
    MemRefDescriptor descriptor(converted);
    Type llvmElement = converter.convertType(elementType);
    data = LLVM::GEPOp::create(rewriter, loc, ptrType, llvmElement,
                               descriptor.alignedPtr(rewriter, loc),
                               descriptor.offset(rewriter, loc));
    rank = memref.getRank();
    if (rank > 0) {
      dims = LLVM::AllocaOp::create(rewriter, loc, ptrType,
                                    LLVM::LLVMArrayType::get(i64Type, rank),
                                    one, /*alignment=*/8);
      for (int64_t d = 0; d < rank; ++d) {
        Value slot = LLVM::GEPOp::create(
            rewriter, loc, ptrType, i64Type, dims,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(d)});
        LLVM::StoreOp::create(rewriter, loc, descriptor.size(rewriter, loc, d),
                              slot);
      }
    }
  } else {
    data =
        LLVM::AllocaOp::create(rewriter, loc, ptrType, converted.getType(), one,
                               /*alignment=*/8);
    LLVM::StoreOp::create(rewriter, loc, converted, data);
  }
  view = LLVM::InsertValueOp::create(rewriter, loc, view, data,
                                     ArrayRef<int64_t>{0});
  view = LLVM::InsertValueOp::create(rewriter, loc, view, dims,
                                     ArrayRef<int64_t>{1});
  view = LLVM::InsertValueOp::create(
      rewriter, loc, view,
      LLVM::ConstantOp::create(rewriter, loc, i32Type, rank),
      ArrayRef<int64_t>{2});
  return LLVM::InsertValueOp::create(
      rewriter, loc, view,
      LLVM::ConstantOp::create(rewriter, loc, i32Type,
                               getElementTypeCode(elementType.isIndex()
                                                      ? rewriter.getI64Type()
                                                      : elementType)),
      ArrayRef<int64_t>{3});
}

/// Lowers kiln.variant_index to a load of the kiln_host_context's
/// `variant` field.
struct VariantIndexOpLowering : public ConvertOpToLLVMPattern<VariantIndexOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(VariantIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!adaptor.getRuntime())
      return rewriter.notifyMatchFailure(op, "no runtime context");
    Location loc = op.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(op.getContext());
    Type i32Type = rewriter.getI32Type();
    // struct kiln_host_context { dispatch; imports; variant; }
    auto contextType = LLVM::LLVMStructType::getLiteral(
        op.getContext(), {ptrType, ptrType, i32Type});
    Value field =
        LLVM::GEPOp::create(rewriter, loc, ptrType, contextType,
                            adaptor.getRuntime(), ArrayRef<LLVM::GEPArg>{0, 2});
    Value index = LLVM::LoadOp::create(rewriter, loc, i32Type, field);
    rewriter.replaceOpWithNewOp<LLVM::ZExtOp>(
        op, getTypeConverter()->convertType(op.getType()), index);
    return success();
  }
};

/// Lowers kiln.check to a call of the runtime's "kiln.check" import with a
/// kiln_check_args on the stack.
struct CheckOpLowering : public ConvertOpToLLVMPattern<CheckOp> {
  CheckOpLowering(const LLVMTypeConverter &converter, HostSymbols &symbols)
      : ConvertOpToLLVMPattern(converter), symbols(symbols) {}

  LogicalResult
  matchAndRewrite(CheckOp check, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = check.getLoc();
    MLIRContext *context = check.getContext();
    if (!adaptor.getRuntime())
      return rewriter.notifyMatchFailure(check, "no runtime context");
    Type ptrType = LLVM::LLVMPointerType::get(context);
    Type i32Type = rewriter.getI32Type();
    Type i64Type = rewriter.getI64Type();
    Type f64Type = rewriter.getF64Type();
    auto viewType = getTensorViewType(context);
    auto argsType = LLVM::LLVMStructType::getLiteral(
        context,
        {i32Type, i32Type, ptrType, viewType, viewType, f64Type, f64Type});
    Value stack = LLVM::StackSaveOp::create(rewriter, loc, ptrType);
    Value one = LLVM::ConstantOp::create(rewriter, loc, i64Type, 1);

    auto makeView = [&](Value original, Value converted) {
      return buildTensorView(rewriter, loc, *getTypeConverter(), original,
                             converted);
    };

    Value args = LLVM::PoisonOp::create(rewriter, loc, argsType);
    auto insert = [&](Value field, int64_t position) {
      args = LLVM::InsertValueOp::create(rewriter, loc, args, field,
                                         ArrayRef<int64_t>{position});
    };
    insert(LLVM::ConstantOp::create(rewriter, loc, i32Type,
                                    static_cast<int32_t>(check.getKind())),
           0);
    insert(LLVM::ConstantOp::create(rewriter, loc, i32Type, 0), 1);
    insert(symbols.getStringPointer(rewriter, loc, describeLocation(loc)), 2);
    insert(makeView(check.getActual(), adaptor.getActual()), 3);
    insert(makeView(check.getExpected(), adaptor.getExpected()), 4);
    insert(LLVM::ConstantOp::create(
               rewriter, loc, f64Type,
               rewriter.getF64FloatAttr(check.getAtol().convertToDouble())),
           5);
    insert(LLVM::ConstantOp::create(
               rewriter, loc, f64Type,
               rewriter.getF64FloatAttr(check.getRtol().convertToDouble())),
           6);
    Value argsSlot = LLVM::AllocaOp::create(rewriter, loc, ptrType, argsType,
                                            one, /*alignment=*/8);
    LLVM::StoreOp::create(rewriter, loc, args, argsSlot);

    callRuntimeImport(rewriter, loc, symbols.getModule(), adaptor.getRuntime(),
                      KILN_IMPORT_CHECK, Type(), {argsSlot});
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
    rewriter.eraseOp(check);
    return success();
  }

private:
  HostSymbols &symbols;
};

/// Lowers kiln.assert to a branch: on to the rest of the block when the
/// condition holds, else to a call of the runtime's "kiln.fail" import with
/// the values as an array of i64 on the stack, which does not return.
struct AssertOpLowering : public ConvertOpToLLVMPattern<AssertOp> {
  AssertOpLowering(const LLVMTypeConverter &converter, HostSymbols &symbols)
      : ConvertOpToLLVMPattern(converter), symbols(symbols) {}

  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = op.getContext();
    if (!adaptor.getRuntime())
      return rewriter.notifyMatchFailure(op, "no runtime context");
    Type ptrType = LLVM::LLVMPointerType::get(context);
    Type i32Type = rewriter.getI32Type();
    Type i64Type = rewriter.getI64Type();

    Block *before = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(before, std::next(op->getIterator()));
    Block *failure = rewriter.createBlock(after);
    size_t count = op.getValues().size();
    Value values;
    if (!count) {
      values = LLVM::ZeroOp::create(rewriter, loc, ptrType);
    } else {
      Value one = LLVM::ConstantOp::create(rewriter, loc, i64Type, 1);
      auto arrayType = LLVM::LLVMArrayType::get(i64Type, count);
      values = LLVM::AllocaOp::create(rewriter, loc, ptrType, arrayType, one,
                                      /*alignment=*/8);
      for (auto [i, original, value] :
           llvm::enumerate(op.getValues(), adaptor.getValues())) {
        Value wide = value;
        unsigned width = value.getType().getIntOrFloatBitWidth();
        if (width == 1)
          wide = LLVM::ZExtOp::create(rewriter, loc, i64Type, value);
        else if (width < 64)
          wide = LLVM::SExtOp::create(rewriter, loc, i64Type, value);
        Value slot = LLVM::GEPOp::create(
            rewriter, loc, ptrType, i64Type, values,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
        LLVM::StoreOp::create(rewriter, loc, wide, slot);
      }
    }
    callRuntimeImport(
        rewriter, loc, symbols.getModule(), adaptor.getRuntime(),
        KILN_IMPORT_FAIL, Type(),
        {symbols.getStringPointer(rewriter, loc, describeLocation(loc)),
         symbols.getStringPointer(rewriter, loc, op.getMessage()), values,
         LLVM::ConstantOp::create(rewriter, loc, i32Type,
                                  static_cast<int32_t>(count))});
    LLVM::UnreachableOp::create(rewriter, loc);

    rewriter.setInsertionPointToEnd(before);
    // Checks pass: the failure block is cold.
    auto branch = LLVM::CondBrOp::create(rewriter, loc, adaptor.getCondition(),
                                         after, failure);
    branch.setWeights({1 << 20, 1});
    rewriter.eraseOp(op);
    return success();
  }

private:
  HostSymbols &symbols;
};

/// Lowers kiln.call_extern (on buffers) to a call of the runtime's
/// "kiln.call_extern" import with arrays of kiln_tensor_view on the stack:
/// the operands, then the outs.
struct CallExternOpLowering : public ConvertOpToLLVMPattern<CallExternOp> {
  CallExternOpLowering(const LLVMTypeConverter &converter, HostSymbols &symbols)
      : ConvertOpToLLVMPattern(converter), symbols(symbols) {}

  LogicalResult
  matchAndRewrite(CallExternOp call, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = call.getLoc();
    MLIRContext *context = call.getContext();
    if (!adaptor.getRuntime())
      return rewriter.notifyMatchFailure(call, "no runtime context");
    if (!call.getResults().empty())
      return rewriter.notifyMatchFailure(call, "not bufferized");
    FailureOr<int32_t> index = getHostExternIndex(
        symbols.getModule(), call, call.getCallee(), call.getSignature());
    if (failed(index))
      return failure();
    Type ptrType = LLVM::LLVMPointerType::get(context);
    Type i32Type = rewriter.getI32Type();
    Type i64Type = rewriter.getI64Type();
    auto viewType = getTensorViewType(context);
    Value stack = LLVM::StackSaveOp::create(rewriter, loc, ptrType);
    Value one = LLVM::ConstantOp::create(rewriter, loc, i64Type, 1);

    // An array of views of `originals`, converted to `converted`.
    auto makeViews = [&](ValueRange originals, ValueRange converted) {
      auto arrayType = LLVM::LLVMArrayType::get(
          viewType, std::max<size_t>(1, originals.size()));
      Value array = LLVM::AllocaOp::create(rewriter, loc, ptrType, arrayType,
                                           one, /*alignment=*/8);
      for (auto [i, original, value] : llvm::enumerate(originals, converted)) {
        Value slot = LLVM::GEPOp::create(
            rewriter, loc, ptrType, viewType, array,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
        LLVM::StoreOp::create(rewriter, loc,
                              buildTensorView(rewriter, loc,
                                              *getTypeConverter(), original,
                                              value),
                              slot);
      }
      return array;
    };
    Value args = makeViews(call.getArgs(), adaptor.getArgs());
    Value outs = makeViews(call.getOuts(), adaptor.getOuts());
    auto constant = [&](int64_t value) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i32Type, value);
    };
    callRuntimeImport(
        rewriter, loc, symbols.getModule(), adaptor.getRuntime(),
        KILN_IMPORT_CALL_EXTERN, Type(),
        {constant(*index), args, constant(call.getArgs().size()), outs,
         constant(call.getOuts().size()),
         symbols.getStringPointer(rewriter, loc, describeLocation(loc))});
    LLVM::StackRestoreOp::create(rewriter, loc, stack);
    rewriter.eraseOp(call);
    return success();
  }

private:
  HostSymbols &symbols;
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
    // Every host function the module calls gets its index before the
    // conversion, so that a callee called with two signatures is one error.
    WalkResult indexed = module.walk([&](CallExternOp call) {
      if (failed(getHostExternIndex(module, call, call.getCallee(),
                                    call.getSignature())))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (indexed.wasInterrupted())
      return signalPassFailure();
    HostSymbols symbols(module);
    patterns.add<LaunchOpLowering, CheckOpLowering, AssertOpLowering,
                 CallExternOpLowering>(converter, symbols);
    patterns.add<VariantIndexOpLowering>(converter);
    populateHostBufferToLLVMPatterns(converter, patterns, symbols);

    LLVMConversionTarget target(*context);
    target.addLegalOp<ModuleOp>();
    target.addLegalOp<ExecutableOp>();
    target.markOpRecursivelyLegal<ExecutableOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
