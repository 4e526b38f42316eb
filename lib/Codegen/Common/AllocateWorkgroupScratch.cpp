//===- AllocateWorkgroupScratch.cpp - Kernel buffers from scratch ---------===//
//
// A kernel's temporary buffers above the stack limit (packed panels, padded
// image tiles) were memref.allocs: a malloc and a free in every workgroup,
// and for buffers of a few hundred KiB fresh pages each time. This pass
// carves them out of the workgroup scratch the runtime keeps per thread
// (kiln.workgroup.scratch), one 64-byte aligned slot each, sized by the
// buffer's static shape or, for a partial tile's dynamic one, by the
// largest it can be.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_ALLOCATEWORKGROUPSCRATCHPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Scratch slots start at multiples of this many bytes: a cache line, and
/// the alignment the runtime gives the scratch itself.
static constexpr uint64_t kSlotAlignment = 64;

/// Whether the buffer `alloc` makes is only read and written in place:
/// nothing it flows into (through views) leaves the workgroup's current
/// use of it. Then it may live in scratch; a buffer allocated in a loop
/// cannot outlive the iteration either.
static bool staysInPlace(memref::AllocOp alloc,
                         SmallVectorImpl<memref::DeallocOp> &deallocs) {
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        // Freeing a view of the buffer would be the program's own bug;
        // leave such a buffer alone.
        if (value != alloc.getResult())
          return false;
        deallocs.push_back(dealloc);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() || isa<CallOpInterface>(user))
        return false;
      if (auto store = dyn_cast<memref::StoreOp>(user))
        if (use.get() == store.getValueToStore())
          return false;
      if (isa<ViewLikeOpInterface, memref::CastOp>(user)) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
        continue;
      }
      // Any other op that hands out something shaped (a memref or tensor
      // that may alias the buffer) lets it escape our sight.
      for (Type type : user->getResultTypes())
        if (isa<BaseMemRefType, TensorType>(type))
          return false;
    }
  }
  return true;
}

/// The most bytes `alloc`'s buffer can take: its static shape, or for a
/// dynamic size the constant upper bound the IR proves (a partial tile's
/// `affine.min` of its tile size); nothing when a size is unbounded or the
/// bytes do not fit in 63 bits.
static std::optional<uint64_t> getMaxByteSize(memref::AllocOp alloc,
                                              const DataLayout &layout) {
  MemRefType type = alloc.getType();
  int64_t bytes = static_cast<int64_t>(
      layout.getTypeSize(type.getElementType()).getFixedValue());
  auto dynamicSize = alloc.getDynamicSizes().begin();
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, {*dynamicSize++, std::nullopt},
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(bound) || *bound < 0)
        return std::nullopt;
      size = *bound;
    }
    if (llvm::MulOverflow(bytes, size, bytes))
      return std::nullopt;
  }
  return static_cast<uint64_t>(bytes);
}

namespace {
struct AllocateWorkgroupScratchPass
    : public kiln::impl::AllocateWorkgroupScratchPassBase<
          AllocateWorkgroupScratchPass> {
  void runOnOperation() override {
    func::FuncOp kernel = getOperation();
    // Only kernels get scratch (kiln-lower-kernel-interface lowers the
    // same functions: no arguments, no results).
    if (kernel.isExternal() || kernel.getNumArguments() != 0 ||
        kernel.getNumResults() != 0)
      return;
    DataLayout layout = DataLayout::closest(kernel);

    struct Slot {
      memref::AllocOp alloc;
      uint64_t offset;
      SmallVector<memref::DeallocOp> deallocs;
    };
    SmallVector<Slot> slots;
    uint64_t total = 0;
    kernel.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!type.getLayout().isIdentity() || type.getMemorySpace() ||
          alloc.getAlignment().value_or(0) > kSlotAlignment)
        return;
      std::optional<uint64_t> bytes = getMaxByteSize(alloc, layout);
      SmallVector<memref::DeallocOp> deallocs;
      if (!bytes || !staysInPlace(alloc, deallocs))
        return;
      uint64_t end = total + llvm::alignTo(*bytes, kSlotAlignment);
      if (end > uint64_t(std::numeric_limits<int64_t>::max()))
        return;
      slots.push_back({alloc, total, std::move(deallocs)});
      total = end;
    });
    if (slots.empty())
      return;

    OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
    Value scratch = WorkgroupScratchOp::create(
        builder, kernel.getLoc(),
        MemRefType::get({static_cast<int64_t>(total)}, builder.getI8Type()));
    for (Slot &slot : slots) {
      builder.setInsertionPoint(slot.alloc);
      Location loc = slot.alloc.getLoc();
      Value offset = arith::ConstantIndexOp::create(
          builder, loc, static_cast<int64_t>(slot.offset));
      Value view =
          memref::ViewOp::create(builder, loc, slot.alloc.getType(), scratch,
                                 offset, slot.alloc.getDynamicSizes());
      slot.alloc.replaceAllUsesWith(view);
      slot.alloc.erase();
      for (memref::DeallocOp dealloc : slot.deallocs)
        dealloc.erase();
    }
  }
};
} // namespace
