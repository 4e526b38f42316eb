//===- SeparateSharedDestinations.cpp - One destination per write ---------===//
//
// Clones a tensor.empty or linalg.fill for each op that writes into its
// result after the first, so that no two writes share a tensor that
// bufferization could then place in one buffer.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kiln {
#define GEN_PASS_DEF_SEPARATESHAREDDESTINATIONSPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;

/// Whether `use` is one that writes into the tensor it takes (or starts a
/// loop-carried tensor from it, which the loop writes).
static bool isDestination(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(user))
    return dps.isDpsInit(&use);
  if (auto write = dyn_cast<vector::TransferWriteOp>(user))
    return &use == &write.getBaseMutable();
  if (auto loop = dyn_cast<scf::ForOp>(user))
    return llvm::is_contained(loop.getInitArgsMutable(), use);
  if (auto loop = dyn_cast<scf::ForallOp>(user))
    return llvm::is_contained(loop.getOutputsMutable(), use);
  return false;
}

/// Gives each destination use of `op`'s result after the first a clone of
/// `op`, placed before it.
static void separate(Operation *op) {
  Value result = op->getResult(0);
  if (!isa<RankedTensorType>(result.getType()))
    return;
  SmallVector<OpOperand *> destinations;
  for (OpOperand &use : result.getUses())
    if (isDestination(use))
      destinations.push_back(&use);
  if (destinations.size() < 2)
    return;
  for (OpOperand *use : llvm::drop_begin(destinations)) {
    OpBuilder builder(op);
    use->set(builder.clone(*op)->getResult(0));
  }
}

namespace {
struct SeparateSharedDestinationsPass
    : public kiln::impl::SeparateSharedDestinationsPassBase<
          SeparateSharedDestinationsPass> {
  void runOnOperation() override {
    // Fills first: their clones write into one empty tensor, which the
    // second round separates.
    SmallVector<Operation *> fills, empties;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::FillOp>(op) && op->getNumResults() == 1)
        fills.push_back(op);
      else if (isa<tensor::EmptyOp>(op))
        empties.push_back(op);
    });
    for (Operation *op : fills)
      separate(op);
    for (Operation *op : empties)
      separate(op);
  }
};
} // namespace
