//===- EliminateSequences.cpp - Sequences replaced by their tensors -------===//
//
// Implements kiln-onnx-eliminate-sequences (see Passes.td): each sequence
// value is tracked as the list of its elements (Sequences.h), in the order
// of the graph; SplitToSequence and ConcatFromSequence become the Split and
// Concat nodes the converters know, SequenceLength a constant, and the
// picks are in SequencePicks.cpp.
//
//===----------------------------------------------------------------------===//

#include "Sequences.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace kiln {
#define GEN_PASS_DEF_ONNXELIMINATESEQUENCESPASS
#include "Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// INT attribute `name` of `node`, `fallback` when absent.
static int64_t getIntAttr(NodeOp node, StringRef name, int64_t fallback) {
  if (auto attribute =
          dyn_cast_or_null<IntegerAttr>(node.getOnnxAttrs().get(name)))
    return attribute.getInt();
  return fallback;
}

/// `axis` in [0, rank), negative ones counted from the end; an error at
/// `node` when out of range.
static FailureOr<int64_t> normalizeAxis(NodeOp node, int64_t axis,
                                        int64_t rank) {
  if (axis < -rank || axis >= rank)
    return node.emitError() << describeNode(node) << ": axis " << axis
                            << " is out of range for rank " << rank,
           failure();
  return axis < 0 ? axis + rank : axis;
}
NodeOp SequenceEliminator::createNode(Location loc, StringRef opType,
                                      TypeRange results, ValueRange inputs,
                                      ArrayRef<NamedAttribute> attributes) {
  NodeOp node = NodeOp::create(b, loc, results, inputs, opType, "", kOpset,
                               b.getDictionaryAttr(attributes),
                               /*graph_attrs=*/nullptr, /*bodiesCount=*/0);
  created.push_back(node);
  return node;
}

void SequenceEliminator::eraseUnused() {
  for (NodeOp node : llvm::reverse(created))
    if (node->use_empty())
      node.erase();
}

Value SequenceEliminator::createAxes(Location loc, int64_t axis) {
  auto type = RankedTensorType::get({1}, b.getI64Type());
  return arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(type, ArrayRef<int64_t>{axis}));
}

LogicalResult SequenceEliminator::split(NodeOp node) {
  Location loc = node.getLoc();
  auto type = dyn_cast<RankedTensorType>(node.getInputs()[0].getType());
  if (!type)
    return node.emitError()
               << describeNode(node) << ": the rank of its input must be known",
           failure();
  FailureOr<int64_t> normalized =
      normalizeAxis(node, getIntAttr(node, "axis", 0), type.getRank());
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  int64_t keepDims = getIntAttr(node, "keepdims", 1);
  int64_t dim = type.getDimSize(axis);
  bool hasSplit = node.getInputs().size() > 1 &&
                  !isa<NoneType>(node.getInputs()[1].getType());
  // The chunks' sizes: static where known.
  SmallVector<int64_t> sizes;
  SmallVector<Value> inputs = {node.getInputs()[0]};
  auto splitType =
      hasSplit ? dyn_cast<RankedTensorType>(node.getInputs()[1].getType())
               : RankedTensorType();
  if (hasSplit && splitType && splitType.getRank() == 1 &&
      !splitType.isDynamicDim(0)) {
    // One chunk per split entry.
    std::optional<SmallVector<int64_t>> given =
        matchConstantInts(node.getInputs()[1]);
    for (int64_t i = 0; i < splitType.getDimSize(0); ++i)
      sizes.push_back(given ? (*given)[i] : ShapedType::kDynamic);
    inputs.push_back(node.getInputs()[1]);
  } else if (ShapedType::isDynamic(dim)) {
    return node.emitError()
               << describeNode(node)
               << ": the number of chunks must be known: split along a dim "
                  "of static size or by a split of static length",
           failure();
  } else {
    // Chunks of a scalar split's size (the last one shorter), or of 1.
    int64_t chunk = 1;
    if (hasSplit) {
      std::optional<SmallVector<int64_t>> given =
          matchConstantInts(node.getInputs()[1]);
      if (!given || given->size() != 1 || (*given)[0] < 1)
        return node.emitError() << describeNode(node)
                                << ": its split (input 1) must be 1-D or a "
                                   "positive constant",
               failure();
      chunk = (*given)[0];
    }
    for (int64_t offset = 0; offset < dim; offset += chunk)
      sizes.push_back(std::min(chunk, dim - offset));
    if (!sizes.empty())
      inputs.push_back(arith::ConstantOp::create(
          b, loc,
          DenseIntElementsAttr::get(
              RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                                    b.getI64Type()),
              ArrayRef<int64_t>(sizes))));
  }
  if (sizes.empty())
    return sequences[node.getResult(0)] = {}, success();
  SmallVector<Type> chunkTypes;
  for (int64_t size : sizes) {
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = size;
    chunkTypes.push_back(type.clone(shape));
  }
  NodeOp splitNode =
      createNode(loc, "Split", chunkTypes, inputs,
                 {b.getNamedAttr("axis", b.getI64IntegerAttr(axis))});
  Elements elements(splitNode.getResults());
  // Without keepdims (chunks of 1 only), each chunk squeezed.
  if (!keepDims && !hasSplit) {
    for (Value &element : elements) {
      auto chunkType = cast<RankedTensorType>(element.getType());
      SmallVector<int64_t> shape(chunkType.getShape());
      shape.erase(shape.begin() + axis);
      element = createNode(loc, "Squeeze", {chunkType.clone(shape)},
                           {element, createAxes(loc, axis)}, {})
                    .getResult(0);
    }
  }
  sequences[node.getResult(0)] = elements;
  return success();
}

LogicalResult SequenceEliminator::concat(NodeOp node) {
  FailureOr<Elements *> elements = getElements(node, 0);
  if (failed(elements))
    return failure();
  if ((*elements)->empty())
    return node.emitError()
               << describeNode(node) << ": it concatenates an empty sequence",
           failure();
  Location loc = node.getLoc();
  int64_t axis = getIntAttr(node, "axis", 0);
  int64_t newAxis = getIntAttr(node, "new_axis", 0);
  Elements inputs = **elements;
  if (newAxis) {
    // Each element gains a dim of 1 at the axis (of the result's rank).
    auto first = dyn_cast<RankedTensorType>(inputs.front().getType());
    if (!first)
      return node.emitError() << describeNode(node)
                              << ": the rank of its elements must be known",
             failure();
    FailureOr<int64_t> normalized =
        normalizeAxis(node, axis, first.getRank() + 1);
    if (failed(normalized))
      return failure();
    axis = *normalized;
    for (Value &input : inputs) {
      auto inputType = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> shape(inputType.getShape());
      shape.insert(shape.begin() + axis, 1);
      input = createNode(loc, "Unsqueeze", {inputType.clone(shape)},
                         {input, createAxes(loc, axis)}, {})
                  .getResult(0);
    }
  }
  NodeOp concatNode =
      createNode(loc, "Concat", {node.getResult(0).getType()}, inputs,
                 {b.getNamedAttr("axis", b.getI64IntegerAttr(axis))});
  node.getResult(0).replaceAllUsesWith(concatNode.getResult(0));
  return success();
}

LogicalResult SequenceEliminator::visit(NodeOp node) {
  StringRef op = node.getOpType();
  bool readsSequence = llvm::any_of(node.getInputs(), [](Value input) {
    return isa<SequenceType>(input.getType());
  });
  bool makesSequence = llvm::any_of(
      node.getResultTypes(), [](Type type) { return isa<SequenceType>(type); });
  if (!readsSequence && !makesSequence)
    return success();
  b.setInsertionPoint(node);
  if (!node.getDomain().empty())
    return node.emitError() << describeNode(node)
                            << ": sequences are read only by the default "
                               "domain's sequence ops",
           failure();
  if (op == "SequenceEmpty") {
    sequences[node.getResult(0)] = {};
    return success();
  }
  if (op == "SequenceConstruct") {
    sequences[node.getResult(0)] = Elements(node.getInputs());
    return success();
  }
  if (op == "Identity") {
    FailureOr<Elements *> elements = getElements(node, 0);
    if (failed(elements))
      return failure();
    sequences[node.getResult(0)] = **elements;
    return success();
  }
  if (op == "SequenceLength") {
    FailureOr<Elements *> elements = getElements(node, 0);
    if (failed(elements))
      return failure();
    auto type = RankedTensorType::get({}, b.getI64Type());
    Value length = arith::ConstantOp::create(
        b, node.getLoc(),
        DenseIntElementsAttr::get(type, ArrayRef<int64_t>{static_cast<int64_t>(
                                            (*elements)->size())}));
    node.getResult(0).replaceAllUsesWith(length);
    return success();
  }
  if (op == "SequenceInsert")
    return insert(node);
  if (op == "SequenceErase")
    return erase(node);
  if (op == "SequenceAt")
    return at(node);
  if (op == "SplitToSequence")
    return split(node);
  if (op == "ConcatFromSequence")
    return concat(node);
  return node.emitError() << describeNode(node)
                          << ": it reads or makes a sequence, which Kiln "
                             "supports only through SequenceEmpty, "
                             "SequenceConstruct, SequenceInsert, "
                             "SequenceErase, SequenceAt, SequenceLength, "
                             "SplitToSequence, ConcatFromSequence and Identity",
         failure();
}

namespace {
struct ONNXEliminateSequencesPass
    : public kiln::impl::ONNXEliminateSequencesPassBase<
          ONNXEliminateSequencesPass> {
  void runOnOperation() override {
    OpBuilder builder(&getContext());
    SequenceEliminator eliminator(builder);
    SmallVector<NodeOp> sequenceNodes;
    WalkResult result = getOperation().walk([&](NodeOp node) {
      if (failed(eliminator.visit(node)))
        return WalkResult::interrupt();
      if (llvm::any_of(node->getOperandTypes(), llvm::IsaPred<SequenceType>) ||
          llvm::any_of(node->getResultTypes(), llvm::IsaPred<SequenceType>))
        sequenceNodes.push_back(node);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    // Every use of a sequence node is a sequence node that came later.
    for (NodeOp node : llvm::reverse(sequenceNodes))
      node.erase();
    eliminator.eraseUnused();
  }
};
} // namespace
