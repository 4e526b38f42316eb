//===- LowerHostBuffers.cpp - kiln.alloc and kiln.dealloc to LLVM ---------===//
//
// Host buffers become calls of the runtime's "kiln.allocate" and
// "kiln.free" imports (kiln_module_abi.h); the runtime aligns every buffer,
// so the descriptor's allocated and aligned pointers are the same.
//
//===----------------------------------------------------------------------===//

#include "RuntimeImports.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln_module_abi.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace kiln;

/// The number of elements of a buffer of `sizes` (i64 values, one per
/// dimension of `type`), or KILN_ALLOCATE_NEGATIVE_SIZE when a dynamic size
/// is negative, or KILN_ALLOCATE_TOO_MANY_ELEMENTS when the product does not
/// fit in 64 bits: the runtime reports either instead of allocating a
/// buffer smaller than the code will write.
static Value countElements(OpBuilder &builder, Location loc, MemRefType type,
                           ArrayRef<Value> sizes) {
  Type i64Type = builder.getI64Type();
  Type i1Type = builder.getI1Type();
  auto productType =
      LLVM::LLVMStructType::getLiteral(builder.getContext(), {i64Type, i1Type});
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, i64Type, value);
  };
  Value count = constant(1);
  Value zero = constant(0);
  Value negative = LLVM::ConstantOp::create(builder, loc, i1Type, 0);
  Value overflow = negative;
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    if (type.isDynamicDim(dim))
      negative = LLVM::OrOp::create(
          builder, loc, negative,
          LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::slt, size,
                               zero));
    Value product = LLVM::SMulWithOverflowOp::create(builder, loc, productType,
                                                     count, size);
    count = LLVM::ExtractValueOp::create(builder, loc, product,
                                         ArrayRef<int64_t>{0});
    overflow =
        LLVM::OrOp::create(builder, loc, overflow,
                           LLVM::ExtractValueOp::create(builder, loc, product,
                                                        ArrayRef<int64_t>{1}));
  }
  count = LLVM::SelectOp::create(
      builder, loc, overflow, constant(KILN_ALLOCATE_TOO_MANY_ELEMENTS), count);
  return LLVM::SelectOp::create(builder, loc, negative,
                                constant(KILN_ALLOCATE_NEGATIVE_SIZE), count);
}

namespace {
struct AllocOpLowering : public ConvertOpToLLVMPattern<AllocOp> {
  AllocOpLowering(const LLVMTypeConverter &converter, HostSymbols &symbols)
      : ConvertOpToLLVMPattern(converter), symbols(symbols) {}

  LogicalResult
  matchAndRewrite(AllocOp alloc, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = alloc.getLoc();
    MemRefType type = alloc.getType();
    if (!isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(alloc, "unsupported memref type");
    SmallVector<Value> sizes, strides;
    Value unchecked;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             sizes, strides, unchecked, /*sizeInBytes=*/false);
    Type i64Type = rewriter.getI64Type();
    Value count = countElements(rewriter, loc, type, sizes);
    Value elementSize = getSizeInBytes(loc, type.getElementType(), rewriter);
    Value alignment = LLVM::ConstantOp::create(
        rewriter, loc, i64Type,
        static_cast<int64_t>(alloc.getAlignment().value_or(0)));
    Value location =
        symbols.getStringPointer(rewriter, loc, describeLocation(loc));
    Value buffer = callRuntimeImport(
        rewriter, loc, symbols.getModule(), adaptor.getRuntime(),
        KILN_IMPORT_ALLOCATE, LLVM::LLVMPointerType::get(rewriter.getContext()),
        {count, elementSize, alignment, location});
    Value descriptor = createMemRefDescriptor(loc, type, buffer, buffer, sizes,
                                              strides, rewriter);
    rewriter.replaceOp(alloc, descriptor);
    return success();
  }

private:
  HostSymbols &symbols;
};

struct DeallocOpLowering : public ConvertOpToLLVMPattern<DeallocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DeallocOp dealloc, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = dealloc.getLoc();
    Value allocated =
        MemRefDescriptor(adaptor.getMemref()).allocatedPtr(rewriter, loc);
    callRuntimeImport(rewriter, loc, dealloc->getParentOfType<ModuleOp>(),
                      adaptor.getRuntime(), KILN_IMPORT_FREE, Type(),
                      {allocated});
    rewriter.eraseOp(dealloc);
    return success();
  }
};
} // namespace

void kiln::populateHostBufferToLLVMPatterns(LLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            HostSymbols &symbols) {
  patterns.add<AllocOpLowering>(converter, symbols);
  patterns.add<DeallocOpLowering>(converter);
}
