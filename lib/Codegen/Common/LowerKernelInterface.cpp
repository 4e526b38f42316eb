//===- LowerKernelInterface.cpp - Kernel interface to the module ABI ------===//
//
// Gives every kernel the kiln_kernel_fn signature of kiln_module_abi.h and
// replaces the kernel interface ops by reads of the dispatch state and the
// workgroup's arguments.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "kiln_module_abi.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cstddef>

namespace kiln {
#define GEN_PASS_DEF_LOWERKERNELINTERFACEPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {
/// Reads the fields of the dispatch state a kernel receives.
class DispatchState {
public:
  DispatchState(OpBuilder &builder, Location loc, Value state)
      : context(builder.getContext()), state(state) {
    ptrType = LLVM::LLVMPointerType::get(context);
    i32Type = IntegerType::get(context, 32);
    i64Type = IntegerType::get(context, 64);
    bindings = loadField(builder, loc, offsetof(kiln_dispatch_state, bindings),
                         ptrType);
    constants = loadField(builder, loc,
                          offsetof(kiln_dispatch_state, constants), ptrType);
  }

  /// The pointer of binding `index`.
  Value loadBinding(OpBuilder &builder, Location loc, int64_t index) {
    return loadElement(builder, loc, bindings, ptrType, index);
  }

  /// Constant `index`, 64 bits wide.
  Value loadConstant(OpBuilder &builder, Location loc, int64_t index) {
    return loadElement(builder, loc, constants, i64Type, index);
  }

  /// The workgroup count along `dimension`, 32 bits wide.
  Value loadWorkgroupCount(OpBuilder &builder, Location loc,
                           int64_t dimension) {
    return loadField(builder, loc,
                     offsetof(kiln_dispatch_state, workgroup_count) +
                         dimension * sizeof(uint32_t),
                     i32Type);
  }

private:
  Value loadField(OpBuilder &builder, Location loc, size_t offset, Type type) {
    Value address = LLVM::GEPOp::create(
        builder, loc, ptrType, IntegerType::get(context, 8), state,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
    return LLVM::LoadOp::create(builder, loc, type, address);
  }

  Value loadElement(OpBuilder &builder, Location loc, Value base, Type type,
                    int64_t index) {
    Value address = LLVM::GEPOp::create(
        builder, loc, ptrType, type, base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
    return LLVM::LoadOp::create(builder, loc, type, address);
  }

  MLIRContext *context;
  Value state;
  Type ptrType, i32Type, i64Type;
  Value bindings, constants;
};
} // namespace

/// Narrows a 64-bit constant to `type`: integers are truncated, floats
/// reinterpreted from their low bits.
static Value narrowConstant(OpBuilder &builder, Location loc, Value word,
                            Type type) {
  if (type.isIndex())
    return arith::IndexCastOp::create(builder, loc, type, word);
  unsigned width = type.getIntOrFloatBitWidth();
  Type intType = builder.getIntegerType(width);
  Value bits =
      width == 64 ? word
                  : Value(arith::TruncIOp::create(builder, loc, intType, word));
  if (isa<FloatType>(type))
    return arith::BitcastOp::create(builder, loc, type, bits);
  return bits;
}

/// A memref over `pointer` with `type`'s shape, row-major and dense, its
/// dynamic sizes taken from `dynamicSizes` (index values).
static Value buildMemRef(OpBuilder &builder, Location loc,
                         const LLVMTypeConverter &converter, MemRefType type,
                         Value pointer, ValueRange dynamicSizes) {
  Type i64Type = builder.getI64Type();
  auto descriptorType = converter.convertType(type);
  MemRefDescriptor descriptor =
      MemRefDescriptor::poison(builder, loc, descriptorType);
  descriptor.setAllocatedPtr(builder, loc, pointer);
  descriptor.setAlignedPtr(builder, loc, pointer);
  descriptor.setOffset(builder, loc,
                       LLVM::ConstantOp::create(builder, loc, i64Type, 0));

  SmallVector<Value> sizes;
  auto dynamic = dynamicSizes.begin();
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size))
      sizes.push_back(
          arith::IndexCastOp::create(builder, loc, i64Type, *dynamic++));
    else
      sizes.push_back(LLVM::ConstantOp::create(builder, loc, i64Type, size));
  }
  Value stride = LLVM::ConstantOp::create(builder, loc, i64Type, 1);
  for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
    descriptor.setSize(builder, loc, dim, sizes[dim]);
    descriptor.setStride(builder, loc, dim, stride);
    stride = LLVM::MulOp::create(builder, loc, stride, sizes[dim]);
  }
  Value memref = UnrealizedConversionCastOp::create(
                     builder, loc, type, static_cast<Value>(descriptor))
                     .getResult(0);
  // The runtime and the host code align every buffer to 64 bytes.
  return memref::AssumeAlignmentOp::create(builder, loc, memref,
                                           builder.getI32IntegerAttr(64));
}

static void lowerKernel(func::FuncOp kernel,
                        const LLVMTypeConverter &converter) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Type i32Type = IntegerType::get(context, 32);
  SmallVector<Type> argTypes = {ptrType, i32Type, i32Type, i32Type, ptrType};
  Block &entry = kernel.getBody().front();
  SmallVector<Location> locs(argTypes.size(), loc);
  entry.addArguments(argTypes, locs);
  kernel.setType(FunctionType::get(context, argTypes, {}));

  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  DispatchState state(builder, loc, entry.getArgument(0));

  // Constants and ids first: bindings may use them as dims.
  SmallVector<Operation *> toErase;
  kernel.walk([&](Operation *op) {
    builder.setInsertionPoint(op);
    Location opLoc = op->getLoc();
    if (auto constant = dyn_cast<DispatchConstantOp>(op)) {
      Value word = state.loadConstant(builder, opLoc, constant.getIndex());
      constant.replaceAllUsesWith(
          narrowConstant(builder, opLoc, word, constant.getType()));
    } else if (auto id = dyn_cast<WorkgroupIdOp>(op)) {
      Value arg = entry.getArgument(1 + id.getDimension());
      id.getResult().replaceAllUsesWith(arith::IndexCastUIOp::create(
          builder, opLoc, builder.getIndexType(), arg));
    } else if (auto count = dyn_cast<WorkgroupCountOp>(op)) {
      Value value =
          state.loadWorkgroupCount(builder, opLoc, count.getDimension());
      count.getResult().replaceAllUsesWith(arith::IndexCastUIOp::create(
          builder, opLoc, builder.getIndexType(), value));
    } else {
      return;
    }
    toErase.push_back(op);
  });
  // The scratch: every op views the same memory; the kernel needs the
  // largest.
  int64_t scratchBytes = 0;
  kernel.walk([&](WorkgroupScratchOp scratch) {
    builder.setInsertionPoint(scratch);
    auto type = cast<MemRefType>(scratch.getType());
    scratchBytes = std::max(scratchBytes, type.getDimSize(0));
    scratch.replaceAllUsesWith(buildMemRef(builder, scratch.getLoc(), converter,
                                           type, entry.getArgument(4), {}));
    toErase.push_back(scratch);
  });
  if (scratchBytes)
    kernel->setAttr(KilnDialect::getWorkgroupScratchBytesAttrName(),
                    builder.getI64IntegerAttr(scratchBytes));
  kernel.walk([&](DispatchBindingOp binding) {
    builder.setInsertionPoint(binding);
    Value pointer =
        state.loadBinding(builder, binding.getLoc(), binding.getBinding());
    binding.replaceAllUsesWith(buildMemRef(builder, binding.getLoc(), converter,
                                           cast<MemRefType>(binding.getType()),
                                           pointer, binding.getDynamicDims()));
    toErase.push_back(binding);
  });
  for (Operation *op : llvm::reverse(toErase))
    op->erase();
}

namespace {
struct LowerKernelInterfacePass
    : public kiln::impl::LowerKernelInterfacePassBase<
          LowerKernelInterfacePass> {
  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal() || kernel.getNumArguments() != 0 ||
          kernel.getNumResults() != 0)
        continue;
      lowerKernel(kernel, converter);
    }
  }
};
} // namespace
