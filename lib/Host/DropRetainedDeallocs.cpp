//===- DropRetainedDeallocs.cpp - Returned buffers out of deallocs --------===//
//
// Takes out of a bufferization.dealloc every buffer that is one of the
// values it retains, in one lookup per buffer, before MLIR's simplification
// compares every buffer with every retained value.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln {
#define GEN_PASS_DEF_DROPRETAINEDDEALLOCSPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// `buffer`, or the buffer whose base it is.
static Value getViewedBuffer(Value buffer) {
  if (auto metadata = buffer.getDefiningOp<memref::ExtractStridedMetadataOp>())
    if (metadata.getBaseBuffer() == buffer)
      return metadata.getSource();
  return buffer;
}

static void dropRetained(bufferization::DeallocOp dealloc) {
  if (!dealloc.use_empty())
    return; // the ownership of the retained values is needed
  llvm::SmallPtrSet<Value, 16> retained(llvm::from_range,
                                        dealloc.getRetained());
  SmallVector<Value> buffers, conditions;
  for (auto [buffer, condition] :
       llvm::zip_equal(dealloc.getMemrefs(), dealloc.getConditions())) {
    if (retained.contains(getViewedBuffer(buffer)))
      continue;
    buffers.push_back(buffer);
    conditions.push_back(condition);
  }
  if (buffers.size() == dealloc.getMemrefs().size())
    return;
  dealloc.getMemrefsMutable().assign(buffers);
  dealloc.getConditionsMutable().assign(conditions);
}

namespace {
struct DropRetainedDeallocsPass
    : public kiln::impl::DropRetainedDeallocsPassBase<
          DropRetainedDeallocsPass> {
  void runOnOperation() override { getOperation().walk(dropRetained); }
};
} // namespace
