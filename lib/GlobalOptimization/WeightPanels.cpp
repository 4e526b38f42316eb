//===- WeightPanels.cpp - Constant weights laid out in panels -------------===//

#include "WeightPanels.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

using namespace mlir;

int64_t kiln::resolveWeightPanelBytes(MLIRContext *context, int64_t panelBytes,
                                      ArrayRef<std::string> targets,
                                      ArrayRef<std::string> cpus,
                                      StringRef cpuFeatures) {
  if (panelBytes != 0)
    return std::max<int64_t>(panelBytes, 0);
  TargetOptions options;
  if (!targets.empty())
    options.backends.assign(targets.begin(), targets.end());
  if (!cpus.empty())
    options.cpus.assign(cpus.begin(), cpus.end());
  options.cpuFeatures = cpuFeatures.str();
  llvm::Expected<int64_t> bytes = getWeightPanelBytes(context, options);
  if (!bytes) {
    llvm::consumeError(bytes.takeError());
    return 0;
  }
  return *bytes;
}

Value kiln::expandToPanels(RewriterBase &rewriter, Location loc, Value value,
                           int64_t columns, int64_t paddedColumns,
                           int64_t panel) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape().drop_back());
  shape.append({paddedColumns / panel, panel});
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(rewriter, loc, value);
  sizes.pop_back();
  sizes.append({rewriter.getIndexAttr(paddedColumns / panel),
                rewriter.getIndexAttr(panel)});
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (fill && fill.getOutputs().front().getDefiningOp<tensor::EmptyOp>()) {
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, sizes, type.getElementType());
    return linalg::FillOp::create(rewriter, loc, fill.getInputs().front(),
                                  empty)
        .getResult(0);
  }
  // An accumulator whose type leaves the columns dynamic is cast to their
  // count first (the op's verifier ties it to the weight's).
  if (type.isDynamicDim(rank - 1)) {
    SmallVector<int64_t> staticColumns(type.getShape());
    staticColumns.back() = columns;
    value = tensor::CastOp::create(
        rewriter, loc, type.clone(ArrayRef<int64_t>(staticColumns)), value);
  }
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 1 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 1, rank});
  return tensor::ExpandShapeOp::create(
      rewriter, loc, RankedTensorType::get(shape, type.getElementType()), value,
      groups, sizes);
}

Value kiln::collapsePanels(RewriterBase &rewriter, Location loc, Value value,
                           int64_t columns, Type type) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d + 2 < rank; ++d)
    groups.push_back({d});
  groups.push_back({rank - 2, rank - 1});
  Value result = tensor::CollapseShapeOp::create(rewriter, loc, value, groups);
  if (cast<RankedTensorType>(result.getType()).getShape().back() != columns) {
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, result);
    sizes.back() = rewriter.getIndexAttr(columns);
    SmallVector<OpFoldResult> offsets(sizes.size(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(sizes.size(), rewriter.getIndexAttr(1));
    result = tensor::ExtractSliceOp::create(rewriter, loc, result, offsets,
                                            sizes, strides);
  }
  if (result.getType() != type)
    result = tensor::CastOp::create(rewriter, loc, type, result);
  return result;
}
