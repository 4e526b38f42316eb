//===- Losses.cpp - ONNX's loss functions ---------------------------------===//
//
// NegativeLogLikelihoodLoss: each target picks its class's element (and
// weight) in one linalg.generic over the targets, a target equal to
// ignore_index counting nothing; then no reduction, a sum, or a sum divided
// by the weights picked. SoftmaxCrossEntropyLoss is the same over a
// LogSoftmax along the class axis.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
struct LossAttributes {
  std::string reduction;
  std::optional<int64_t> ignoreIndex;
};
} // namespace

static FailureOr<LossAttributes> readLossAttributes(NodeConverter &node) {
  if (failed(node.checkAttributes({"reduction", "ignore_index"})))
    return failure();
  FailureOr<std::string> reduction = node.getString("reduction", "mean");
  if (failed(reduction))
    return failure();
  if (*reduction != "none" && *reduction != "sum" && *reduction != "mean")
    return node.error() << "reduction '" << *reduction << "' is unknown",
           failure();
  LossAttributes attributes{*reduction, std::nullopt};
  if (node.getAttribute("ignore_index")) {
    FailureOr<int64_t> ignore = node.getInt("ignore_index", 0);
    if (failed(ignore))
      return failure();
    attributes.ignoreIndex = *ignore;
  }
  return attributes;
}

/// The loss of log-probabilities `scores` ([N, C, d...]) at `targets`
/// ([N, d...]), weighted by `weights` ([C], or null), reduced as
/// `attributes` say into `resultType`.
static Value buildNegativeLogLikelihood(OpBuilder &b, Location loc,
                                        Value scores, Value targets,
                                        Value weights,
                                        const LossAttributes &attributes,
                                        RankedTensorType resultType) {
  auto targetType = cast<RankedTensorType>(targets.getType());
  Type element = getElementTypeOrSelf(scores.getType());
  int64_t rank = targetType.getRank();
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(targetType.isDynamicDim(d)
                        ? OpFoldResult(getDimSize(b, loc, targets, d))
                        : b.getIndexAttr(targetType.getDimSize(d)));
  auto lossType = targetType.clone(element);
  Value lossInit = tensor::EmptyOp::create(b, loc, sizes, element);
  Value weightInit = tensor::EmptyOp::create(b, loc, sizes, element);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  auto picked = linalg::GenericOp::create(
      b, loc, TypeRange{lossType, lossType}, ValueRange{targets},
      ValueRange{lossInit, weightInit},
      ArrayRef<AffineMap>{identity, identity, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value target = args[0];
        Value ignored = arith::ConstantOp::create(nb, l, nb.getBoolAttr(false));
        if (attributes.ignoreIndex) {
          Value ignore = arith::ConstantOp::create(
              nb, l,
              nb.getIntegerAttr(target.getType(), *attributes.ignoreIndex));
          ignored = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                          target, ignore);
          // An ignored target may be out of range: read class 0 instead.
          Value zero = arith::ConstantOp::create(
              nb, l, nb.getZeroAttr(target.getType()));
          target = arith::SelectOp::create(nb, l, ignored, zero, target);
        }
        Value index =
            arith::IndexCastOp::create(nb, l, nb.getIndexType(), target);
        SmallVector<Value> position = {linalg::IndexOp::create(nb, l, 0),
                                       index};
        for (int64_t d = 1; d < rank; ++d)
          position.push_back(linalg::IndexOp::create(nb, l, d));
        Value score = tensor::ExtractOp::create(nb, l, scores, position);
        Value weight =
            weights
                ? tensor::ExtractOp::create(nb, l, weights, index).getResult()
                : arith::ConstantOp::create(nb, l, nb.getOneAttr(element))
                      .getResult();
        Value zero = arith::ConstantOp::create(nb, l, nb.getZeroAttr(element));
        weight = arith::SelectOp::create(nb, l, ignored, zero, weight);
        Value loss = arith::NegFOp::create(
            nb, l, arith::MulFOp::create(nb, l, score, weight));
        linalg::YieldOp::create(nb, l, ValueRange{loss, weight});
      });
  Value loss = picked.getResult(0);
  if (attributes.reduction == "none")
    return loss;
  SmallVector<int64_t> all;
  for (int64_t d = 0; d < rank; ++d)
    all.push_back(d);
  auto add = [](OpBuilder &nb, Location l, Value x, Value acc) {
    return arith::AddFOp::create(nb, l, x, acc).getResult();
  };
  Value sum = reduce(b, loc, loss, all, b.getZeroAttr(element), add);
  if (attributes.reduction == "mean") {
    Value total =
        reduce(b, loc, picked.getResult(1), all, b.getZeroAttr(element), add);
    sum = buildElementwise(
        b, loc, cast<RankedTensorType>(sum.getType()), ValueRange{sum, total},
        [](OpBuilder &nb, Location l, ValueRange args) -> Value {
          return arith::DivFOp::create(nb, l, args[0], args[1]);
        });
  }
  return reshapeTo(b, loc, sum, resultType);
}

static LogicalResult
convertNegativeLogLikelihood(NodeConverter &node,
                             SmallVectorImpl<Value> &results) {
  FailureOr<LossAttributes> attributes = readLossAttributes(node);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> targetType = node.getRankedInputType(1);
  if (failed(attributes) || failed(type) || failed(inputType) ||
      failed(targetType))
    return failure();
  if (!isa<FloatType>(inputType->getElementType()))
    return node.error() << "it needs a float input", failure();
  results.push_back(buildNegativeLogLikelihood(
      node.builder, node.getLoc(), node.input(0), node.input(1),
      node.hasInput(2) ? node.input(2) : Value(), *attributes, *type));
  return success();
}

static LogicalResult
convertSoftmaxCrossEntropy(NodeConverter &node,
                           SmallVectorImpl<Value> &results) {
  FailureOr<LossAttributes> attributes = readLossAttributes(node);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  if (failed(attributes) || failed(type) || failed(inputType))
    return failure();
  if (!isa<FloatType>(inputType->getElementType()))
    return node.error() << "it needs a float input", failure();
  if (inputType->getRank() < 2)
    return node.error() << "the scores have rank " << inputType->getRank()
                        << "; they need 2+",
           failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Value logProbabilities =
      buildSoftmax(b, loc, node.input(0), /*axis=*/1, /*logarithm=*/true);
  results.push_back(buildNegativeLogLikelihood(
      b, loc, logProbabilities, node.input(1),
      node.hasInput(2) ? node.input(2) : Value(), *attributes, *type));
  if (node.getNumResults() > 1)
    results.push_back(logProbabilities);
  return success();
}

void onnx_plugin::addLossConverters(ConverterTable &table) {
  table["NegativeLogLikelihoodLoss"] = {convertNegativeLogLikelihood};
  table["SoftmaxCrossEntropyLoss"] = {convertSoftmaxCrossEntropy};
}
