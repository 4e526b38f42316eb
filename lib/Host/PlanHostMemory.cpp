//===- PlanHostMemory.cpp - A host function's intermediates in one arena --===//
//
// After buffer deallocation, each static intermediate of a host function
// is allocated and freed in the function's block; it lives from its
// memref.alloc to the last op that uses it or a view of it (the dealloc
// itself comes at the end of the block). This pass gives those buffers
// offsets in one arena so that buffers whose lifetimes do not overlap
// share bytes, greedily by size (the largest first, each at the lowest
// offset free for its lifetime).
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

namespace kiln {
#define GEN_PASS_DEF_PLANHOSTMEMORYPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// Every buffer starts at a multiple of this: a cache line, the widest
/// vector the kernels load, what the runtime gives every buffer.
constexpr uint64_t kMinimumAlignment = 64;

/// A buffer to place: alive from the op at `start` to the op at `end`
/// (positions in the function's block), both included.
struct PlannedBuffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  unsigned start, end;
  uint64_t bytes, alignment;
  uint64_t offset = 0;
};

/// The bytes of a static buffer of `type`, or nothing when its elements
/// are not whole bytes or the size does not fit in 63 bits.
std::optional<uint64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  std::optional<int64_t> bytes = element.getIntOrFloatBitWidth() / 8;
  for (int64_t size : type.getShape())
    if (bytes)
      bytes = llvm::checkedMul(*bytes, size);
  if (!bytes)
    return std::nullopt;
  return static_cast<uint64_t>(*bytes);
}

/// The dealloc of `alloc` when that is its only one and it is in `block`.
memref::DeallocOp soleDeallocIn(memref::AllocOp alloc, Block &block) {
  memref::DeallocOp found;
  for (Operation *user : alloc->getUsers()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (!dealloc)
      continue;
    if (found || dealloc->getBlock() != &block)
      return nullptr;
    found = dealloc;
  }
  return found;
}

/// The position in `block` of the last op that uses `alloc` or a view of
/// it, other than `dealloc`. Nothing when a use may make an alias that is
/// not a view (a select, a call, a region's result, a return): then the
/// buffer lives until its dealloc.
std::optional<unsigned>
lastUse(memref::AllocOp alloc, memref::DeallocOp dealloc, Block &block,
        const DenseMap<Operation *, unsigned> &position) {
  unsigned last = position.lookup(alloc);
  SmallVector<Value> aliases = {alloc.getResult()};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      if (user == dealloc.getOperation())
        continue;
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      if (!ancestor)
        return std::nullopt;
      last = std::max(last, position.lookup(ancestor));
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == alias) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            aliases.push_back(result);
        continue;
      }
      if (user->hasTrait<OpTrait::IsTerminator>() ||
          llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
        return std::nullopt;
    }
  }
  return last;
}

/// Gives each buffer an offset; returns the arena's size, or nothing when
/// it would not fit in 63 bits.
std::optional<uint64_t> place(MutableArrayRef<PlannedBuffer> buffers) {
  SmallVector<PlannedBuffer *> order;
  for (PlannedBuffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order, [](PlannedBuffer *a, PlannedBuffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<PlannedBuffer *> placed;
  uint64_t arena = 0;
  for (PlannedBuffer *buffer : order) {
    // The placed buffers alive at the same time, by offset.
    SmallVector<PlannedBuffer *> overlapping;
    for (PlannedBuffer *other : placed)
      if (other->start <= buffer->end && buffer->start <= other->end)
        overlapping.push_back(other);
    llvm::sort(overlapping, [](PlannedBuffer *a, PlannedBuffer *b) {
      return a->offset < b->offset;
    });
    // The lowest aligned offset before which every gap is too small.
    uint64_t offset = 0;
    for (PlannedBuffer *other : overlapping) {
      uint64_t aligned = llvm::alignTo(offset, buffer->alignment);
      if (aligned + buffer->bytes <= other->offset)
        break;
      offset = std::max(offset, other->offset + other->bytes);
    }
    buffer->offset = llvm::alignTo(offset, buffer->alignment);
    std::optional<int64_t> end =
        llvm::checkedAdd(static_cast<int64_t>(buffer->offset),
                         static_cast<int64_t>(buffer->bytes));
    if (!end)
      return std::nullopt;
    arena = std::max(arena, static_cast<uint64_t>(*end));
    placed.push_back(buffer);
  }
  return arena;
}

struct PlanHostMemoryPass
    : public kiln::impl::PlanHostMemoryPassBase<PlanHostMemoryPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &block = func.getBody().front();
    if (!isa<func::ReturnOp>(block.getTerminator()))
      return;

    DenseMap<Operation *, unsigned> position;
    for (auto [index, op] : llvm::enumerate(block))
      position[&op] = index;
    SmallVector<PlannedBuffer> buffers;
    uint64_t separate = 0;
    for (auto alloc : block.getOps<memref::AllocOp>()) {
      std::optional<uint64_t> bytes = staticBytes(alloc.getType());
      memref::DeallocOp dealloc = soleDeallocIn(alloc, block);
      if (!bytes || *bytes == 0 || !dealloc ||
          !alloc.getSymbolOperands().empty())
        continue;
      uint64_t alignment = alloc.getAlignment().value_or(kMinimumAlignment);
      if (!llvm::isPowerOf2_64(alignment))
        continue;
      alignment = std::max(alignment, kMinimumAlignment);
      std::optional<unsigned> end = lastUse(alloc, dealloc, block, position);
      buffers.push_back({alloc, dealloc, position[alloc],
                         end ? *end : position[dealloc], *bytes, alignment});
      separate = llvm::SaturatingAdd(separate,
                                     llvm::alignTo(*bytes, kMinimumAlignment));
    }
    // One buffer gains nothing from an arena.
    if (buffers.size() < 2)
      return;
    std::optional<uint64_t> arenaBytes = place(buffers);
    if (!arenaBytes)
      return;

    uint64_t alignment = kMinimumAlignment;
    for (const PlannedBuffer &buffer : buffers)
      alignment = std::max(alignment, buffer.alignment);
    OpBuilder builder(&getContext());
    builder.setInsertionPointToStart(&block);
    auto arenaType = MemRefType::get({static_cast<int64_t>(*arenaBytes)},
                                     builder.getI8Type());
    Location loc = func.getLoc();
    auto arena = memref::AllocOp::create(builder, loc, arenaType,
                                         builder.getI64IntegerAttr(alignment));
    for (PlannedBuffer &buffer : buffers) {
      builder.setInsertionPoint(buffer.alloc);
      Value offset = arith::ConstantIndexOp::create(
          builder, buffer.alloc.getLoc(), buffer.offset);
      auto view = memref::ViewOp::create(builder, buffer.alloc.getLoc(),
                                         buffer.alloc.getType(), arena, offset,
                                         ValueRange());
      buffer.dealloc.erase();
      buffer.alloc.replaceAllUsesWith(view.getResult());
      buffer.alloc.erase();
    }
    builder.setInsertionPoint(block.getTerminator());
    memref::DeallocOp::create(builder, loc, arena);
    // Apart, the buffers may take more bytes than 63 bits count.
    separate = std::min<uint64_t>(separate, INT64_MAX);
    func->setAttr(
        KilnDialect::getHostArenaAttrName(),
        builder.getDenseI64ArrayAttr({static_cast<int64_t>(*arenaBytes),
                                      static_cast<int64_t>(separate)}));
  }
};

} // namespace
