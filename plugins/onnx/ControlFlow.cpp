//===- ControlFlow.cpp - If, and what Loop and Scan share -----------------===//
//
// A node's subgraphs arrive as its regions, their nodes already converted
// (the pass converts inner nodes first). If becomes scf.if, or the branch
// its constant condition takes; Loop and Scan (Loops.cpp) become
// scf.while. The helpers here move a subgraph's ops into the op that
// replaces its node and cast its values to the node's types.
//
//===----------------------------------------------------------------------===//

#include "ControlFlow.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// The region of the node's graph attribute `name`; an error when absent.
Region *onnx_plugin::getGraph(NodeConverter &node, StringRef name) {
  if (std::optional<ArrayAttr> names = node.node.getGraphAttrs())
    for (auto [attribute, region] : llvm::zip(*names, node.node.getBodies()))
      if (cast<StringAttr>(attribute).getValue() == name)
        return &region;
  node.error() << "has no graph attribute '" << name << "'";
  return nullptr;
}

/// The ranked types of the node's results; an error names a result whose
/// rank is unknown.
FailureOr<SmallVector<RankedTensorType>>
onnx_plugin::getResultTypes(NodeConverter &node) {
  SmallVector<RankedTensorType> types;
  for (unsigned i = 0; i < node.getNumResults(); ++i) {
    auto type = dyn_cast<RankedTensorType>(node.getResultType(i));
    if (!type)
      return node.error() << "the rank of output " << i
                          << " is unknown (its subgraphs give it different "
                             "ranks), which Kiln does not compile",
             failure();
    types.push_back(type);
  }
  return types;
}

/// `value` as `type`, which differs from its own in static sizes only.
FailureOr<Value> onnx_plugin::castTo(NodeConverter &node, OpBuilder &b,
                                     Value value, Type type,
                                     const Twine &what) {
  if (value.getType() == type)
    return value;
  auto from = dyn_cast<RankedTensorType>(value.getType());
  auto to = dyn_cast<RankedTensorType>(type);
  if (!from || !to || from.getRank() != to.getRank() ||
      from.getElementType() != to.getElementType())
    return node.error() << what << " is " << value.getType()
                        << " where it must be " << type,
           failure();
  return Value(tensor::CastOp::create(b, node.getLoc(), to, value));
}

/// The one element of `tensor` (of any rank) as a scalar; a run-time check
/// that each dynamic dim is 1.
FailureOr<Value> onnx_plugin::extractScalar(NodeConverter &node, OpBuilder &b,
                                            Value tensor, const Twine &what) {
  Location loc = node.getLoc();
  auto type = cast<RankedTensorType>(tensor.getType());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (type.getDimSize(d) == 1)
      continue;
    if (!type.isDynamicDim(d))
      return node.error() << what << " has " << type.getNumElements()
                          << " elements; it must have one",
             failure();
    Value size = tensor::DimOp::create(b, loc, tensor, d);
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one),
        what + " must have one element; dim " + Twine(d) + " has {0}", {size},
        &b);
  }
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(b, loc, 0));
  return Value(tensor::ExtractOp::create(b, loc, tensor, zeros));
}

/// `scalar` as a tensor of `type` (rank 0, or one element).
Value onnx_plugin::fromScalar(OpBuilder &b, Location loc, Value scalar,
                              Type type) {
  auto ranked = cast<RankedTensorType>(type);
  auto exact = RankedTensorType::get(SmallVector<int64_t>(ranked.getRank(), 1),
                                     ranked.getElementType());
  Value tensor = tensor::FromElementsOp::create(b, loc, exact, scalar);
  if (exact != ranked)
    tensor = tensor::CastOp::create(b, loc, ranked, tensor);
  return tensor;
}

/// Moves the ops of `block`, a node's subgraph, before `where` in `dest`,
/// its arguments replaced by `arguments`; returns what its onnx.yield
/// returned (the yield is erased).
SmallVector<Value> onnx_plugin::inlineGraph(Block &block, Block &dest,
                                            Block::iterator where,
                                            ValueRange arguments) {
  for (auto [argument, value] : llvm::zip(block.getArguments(), arguments))
    argument.replaceAllUsesWith(value);
  auto yield = cast<YieldOp>(block.getTerminator());
  SmallVector<Value> yielded(yield.getValues());
  yield.erase();
  dest.getOperations().splice(where, block.getOperations());
  return yielded;
}

/// The values of `yielded` cast to `types`, or failure.
FailureOr<SmallVector<Value>>
onnx_plugin::castAll(NodeConverter &node, OpBuilder &b, ValueRange values,
                     TypeRange types, StringRef what) {
  SmallVector<Value> cast;
  for (auto [i, value, type] : llvm::enumerate(values, types)) {
    FailureOr<Value> casted =
        castTo(node, b, value, type, what + " " + Twine(i));
    if (failed(casted))
      return failure();
    cast.push_back(*casted);
  }
  return cast;
}

//===----------------------------------------------------------------------===//
// If
//===----------------------------------------------------------------------===//

static LogicalResult convertIf(NodeConverter &node,
                               SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  Region *thenGraph = getGraph(node, "then_branch");
  Region *elseGraph = getGraph(node, "else_branch");
  FailureOr<SmallVector<RankedTensorType>> types = getResultTypes(node);
  if (!thenGraph || !elseGraph || failed(types))
    return failure();
  SmallVector<Type> resultTypes(types->begin(), types->end());
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();

  // A constant condition: the branch it takes, in place of the node.
  DenseElementsAttr constant;
  if (matchPattern(node.input(0), m_Constant(&constant)) &&
      constant.getNumElements() == 1) {
    Region *taken = *constant.getValues<bool>().begin() ? thenGraph : elseGraph;
    SmallVector<Value> yielded = inlineGraph(
        taken->front(), *b.getInsertionBlock(), b.getInsertionPoint(), {});
    FailureOr<SmallVector<Value>> cast =
        castAll(node, b, yielded, resultTypes, "output");
    if (failed(cast))
      return failure();
    results.append(*cast);
    return success();
  }

  FailureOr<Value> condition =
      extractScalar(node, b, node.input(0), "the condition");
  if (failed(condition))
    return failure();
  auto ifOp = scf::IfOp::create(b, loc, resultTypes, *condition,
                                /*withElseRegion=*/true);
  for (auto [graph, region] : {std::pair(thenGraph, &ifOp.getThenRegion()),
                               std::pair(elseGraph, &ifOp.getElseRegion())}) {
    Block &block = region->front();
    SmallVector<Value> yielded =
        inlineGraph(graph->front(), block, block.end(), {});
    OpBuilder inner = OpBuilder::atBlockEnd(&block);
    FailureOr<SmallVector<Value>> cast = castAll(
        node, inner, yielded, resultTypes,
        graph == thenGraph ? "then_branch's output" : "else_branch's output");
    if (failed(cast))
      return failure();
    scf::YieldOp::create(inner, loc, *cast);
  }
  results.append(ifOp.getResults().begin(), ifOp.getResults().end());
  return success();
}

void onnx_plugin::addControlFlowConverters(ConverterTable &table) {
  table["If"] = {convertIf};
  table["Loop"] = {convertLoop};
  // Scan-8 had a batch dim and sequence lengths.
  table["Scan"] = {convertScan, 9};
}
