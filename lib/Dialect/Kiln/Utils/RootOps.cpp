//===- RootOps.cpp - What becomes a dispatch --------------------*- C++ -*-===//
//
// Classifies ops for dispatch formation and names dispatches after their
// root op.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/Utils/RootOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static bool hasTensorResults(Operation *op) {
  return op->getNumResults() > 0 &&
         llvm::all_of(op->getResultTypes(),
                      [](Type t) { return isa<RankedTensorType>(t); });
}

/// Linalg ops with an iteration space that are not structured ops:
/// softmax, pack, unpack, the winograd transforms.
static bool isNonStructuredLinalgOp(Operation *op) {
  return isa_and_nonnull<linalg::LinalgDialect>(op->getDialect()) &&
         !isa<linalg::LinalgOp>(op) && isa<TilingInterface>(op) &&
         hasTensorResults(op);
}

bool kiln::isDispatchable(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureTensorSemantics() && hasTensorResults(op);
  if (isNonStructuredLinalgOp(op))
    return true;
  return isa<tensor::PadOp, tensor::ConcatOp, tensor::ExtractSliceOp,
             tensor::InsertSliceOp, tensor::InsertOp, tensor::GenerateOp,
             tensor::SplatOp, tensor::GatherOp, tensor::ScatterOp>(op);
}

bool kiln::isHeavyRoot(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return isDispatchable(op) && linalgOp.getNumReductionLoops() > 0;
  return isNonStructuredLinalgOp(op);
}

Operation *kiln::findRootOp(Block &body) {
  Operation *last = nullptr;
  for (Operation &op : body) {
    if (isHeavyRoot(&op))
      return &op;
    if (isDispatchable(&op))
      last = &op;
  }
  return last;
}

/// The kind of a root op for names: the op's own name, with generics named
/// by what they compute.
static std::string getRootKind(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic)
    return op->getName().stripDialect().str();
  if (linalg::isaContractionOpInterface(generic))
    return "contraction";
  if (linalg::isaConvolutionOpInterface(generic))
    return "convolution";
  if (generic.getNumReductionLoops() > 0)
    return "reduction";
  return "elementwise";
}

/// The sizes that describe `root`: its loop ranges, or its result's shape.
static SmallVector<int64_t> getDescriptiveSizes(Operation *root) {
  SmallVector<int64_t> sizes;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(root))
    sizes = linalgOp.getStaticLoopRanges();
  else if (root->getNumResults() > 0)
    if (auto shaped = dyn_cast<ShapedType>(root->getResult(0).getType()))
      llvm::append_range(sizes, shaped.getShape());
  return sizes;
}

static Type getResultElementType(Operation *root) {
  if (root->getNumResults() == 0)
    return {};
  return getElementTypeOrSelf(root->getResult(0).getType());
}

/// `sizes` joined by 'x', `dynamic` for a dynamic one.
static void printSizes(llvm::raw_ostream &os, ArrayRef<int64_t> sizes,
                       StringRef dynamic) {
  llvm::interleave(
      sizes, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << dynamic;
        else
          os << size;
      },
      "x");
}

std::string kiln::describeRootOp(Operation *root) {
  SmallVector<int64_t> sizes = getDescriptiveSizes(root);
  Type elementType = getResultElementType(root);

  std::string name = getRootKind(root);
  for (char &c : name)
    if (c == '.')
      c = '_';
  llvm::raw_string_ostream os(name);
  if (!sizes.empty()) {
    os << "_";
    printSizes(os, sizes, "D");
  }
  if (elementType) {
    os << "_";
    elementType.print(os);
  }
  return name;
}

std::string kiln::summarizeRootOp(Operation *root) {
  std::string summary = root->getName().getStringRef().str();
  llvm::raw_string_ostream os(summary);
  SmallVector<int64_t> sizes = getDescriptiveSizes(root);
  os << " ";
  if (sizes.empty())
    os << "-";
  printSizes(os, sizes, "?");
  os << " ";
  if (Type elementType = getResultElementType(root))
    elementType.print(os);
  else
    os << "-";
  return summary;
}
