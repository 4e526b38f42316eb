//===- SequencePicks.cpp - Picking from a sequence's elements -------------===//
//
// SequenceAt, SequenceInsert and SequenceErase on the list of a sequence's
// elements: at a constant position they pick, insert or drop list
// elements; at a run-time position each element of the result is a chain
// of scf.if over its candidates, cast to their common type.
//
//===----------------------------------------------------------------------===//

#include "Sequences.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

/// The type every one of `types` has, dims that differ made dynamic.
static Type joinTypes(ArrayRef<Type> types) {
  auto first = cast<RankedTensorType>(types.front());
  SmallVector<int64_t> shape(first.getShape());
  for (Type type : types.drop_front()) {
    auto ranked = cast<RankedTensorType>(type);
    for (auto [size, other] : llvm::zip(shape, ranked.getShape()))
      if (size != other)
        size = ShapedType::kDynamic;
  }
  return first.clone(shape);
}

FailureOr<Elements *> SequenceEliminator::getElements(NodeOp node, unsigned i) {
  auto it = sequences.find(node.getInputs()[i]);
  if (it == sequences.end())
    return node.emitError() << describeNode(node) << ": input " << i
                            << " is a sequence Kiln cannot follow",
           failure();
  return &it->second;
}

FailureOr<int64_t> SequenceEliminator::getPosition(NodeOp node, unsigned i,
                                                   int64_t size,
                                                   Value &dynamic) {
  Value position = node.getInputs()[i];
  if (std::optional<SmallVector<int64_t>> constant =
          matchConstantInts(position)) {
    if (constant->size() != 1)
      return node.emitError() << describeNode(node) << ": position (input " << i
                              << ") must be a scalar",
             failure();
    int64_t value = (*constant)[0];
    if (value < -size || value > size)
      return node.emitError() << describeNode(node) << ": position " << value
                              << " is outside a sequence of " << size,
             failure();
    return value < 0 ? value + size : value;
  }
  Location loc = node.getLoc();
  auto type = dyn_cast<RankedTensorType>(position.getType());
  if (!type || type.getNumElements() != 1)
    return node.emitError() << describeNode(node) << ": position (input " << i
                            << ") must be a scalar",
           failure();
  SmallVector<Value> zeros(type.getRank(),
                           arith::ConstantIndexOp::create(b, loc, 0));
  Value element = tensor::ExtractOp::create(b, loc, position, zeros);
  dynamic =
      wrapIndex(b, loc, element, arith::ConstantIndexOp::create(b, loc, size));
  return -1;
}

Value SequenceEliminator::pick(Location loc, ArrayRef<Value> candidates,
                               Value index, Type type) {
  auto cast = [&](OpBuilder &builder, Value value) -> Value {
    if (value.getType() == type)
      return value;
    return tensor::CastOp::create(builder, loc, type, value);
  };
  if (candidates.size() == 1)
    return cast(b, candidates.front());
  // index == 0 ? first : pick(rest, index - 1).
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, index,
                            arith::ConstantIndexOp::create(b, loc, 0));
  auto branch = scf::IfOp::create(
      b, loc, isFirst,
      [&](OpBuilder &nb, Location l) {
        scf::YieldOp::create(nb, l, ValueRange{cast(nb, candidates.front())});
      },
      [&](OpBuilder &nb, Location l) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value next = arith::SubIOp::create(
            b, l, index, arith::ConstantIndexOp::create(b, l, 1));
        Value rest = pick(l, candidates.drop_front(), next, type);
        scf::YieldOp::create(b, l, ValueRange{rest});
      });
  return branch.getResult(0);
}
LogicalResult SequenceEliminator::insert(NodeOp node) {
  FailureOr<Elements *> old = getElements(node, 0);
  if (failed(old))
    return failure();
  Elements elements = **old;
  int64_t size = elements.size();
  Value tensor = node.getInputs()[1];
  Value dynamic;
  int64_t position = size;
  if (node.getInputs().size() > 2 &&
      !isa<NoneType>(node.getInputs()[2].getType())) {
    FailureOr<int64_t> given = getPosition(node, 2, size, dynamic);
    if (failed(given))
      return failure();
    position = *given;
  }
  if (!dynamic) {
    elements.insert(elements.begin() + position, tensor);
    sequences[node.getResult(0)] = elements;
    return success();
  }
  // Element i: old[i] before the position, the tensor at it, old[i - 1]
  // after it; picked by (i < p ? 0 : i == p ? 1 : 2).
  Location loc = node.getLoc();
  Elements result;
  for (int64_t i = 0; i <= size; ++i) {
    SmallVector<Value> candidates;
    if (i < size)
      candidates.push_back(elements[i]);
    candidates.push_back(tensor);
    if (i > 0)
      candidates.push_back(elements[i - 1]);
    SmallVector<Type> types;
    for (Value candidate : candidates)
      types.push_back(candidate.getType());
    Value here = arith::ConstantIndexOp::create(b, loc, i);
    Value before =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, here, dynamic);
    Value equal =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, here, dynamic);
    // Candidates past the first only where they exist.
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value choice;
    if (i == size) // tensor (i == p) or old[i - 1]
      choice = arith::SelectOp::create(b, loc, equal, zero, one);
    else if (i == 0) // old[0] (0 < p) or the tensor
      choice = arith::SelectOp::create(b, loc, before, zero, one);
    else
      choice = arith::SelectOp::create(
          b, loc, before, zero,
          arith::SelectOp::create(b, loc, equal, one,
                                  arith::ConstantIndexOp::create(b, loc, 2)));
    result.push_back(pick(loc, candidates, choice, joinTypes(types)));
  }
  sequences[node.getResult(0)] = result;
  return success();
}

LogicalResult SequenceEliminator::erase(NodeOp node) {
  FailureOr<Elements *> old = getElements(node, 0);
  if (failed(old))
    return failure();
  Elements elements = **old;
  int64_t size = elements.size();
  if (size == 0)
    return node.emitError()
               << describeNode(node) << ": it erases from an empty sequence",
           failure();
  Value dynamic;
  int64_t position = size - 1;
  if (node.getInputs().size() > 1 &&
      !isa<NoneType>(node.getInputs()[1].getType())) {
    FailureOr<int64_t> given = getPosition(node, 1, size, dynamic);
    if (failed(given))
      return failure();
    if (!dynamic && *given == size)
      return node.emitError() << describeNode(node) << ": position " << size
                              << " is outside a sequence of " << size,
             failure();
    position = *given;
  }
  if (!dynamic) {
    elements.erase(elements.begin() + position);
    sequences[node.getResult(0)] = elements;
    return success();
  }
  // Element i: old[i] before the position, old[i + 1] from it on.
  Location loc = node.getLoc();
  Elements result;
  for (int64_t i = 0; i + 1 < size; ++i) {
    Value here = arith::ConstantIndexOp::create(b, loc, i);
    Value from =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, here, dynamic);
    Value choice = arith::IndexCastOp::create(
        b, loc, b.getIndexType(),
        arith::ExtUIOp::create(b, loc, b.getI64Type(), from));
    SmallVector<Value> candidates = {elements[i], elements[i + 1]};
    result.push_back(
        pick(loc, candidates, choice,
             joinTypes({elements[i].getType(), elements[i + 1].getType()})));
  }
  sequences[node.getResult(0)] = result;
  return success();
}

LogicalResult SequenceEliminator::at(NodeOp node) {
  FailureOr<Elements *> elements = getElements(node, 0);
  if (failed(elements))
    return failure();
  int64_t size = (*elements)->size();
  Value dynamic;
  FailureOr<int64_t> position = getPosition(node, 1, size, dynamic);
  if (failed(position))
    return failure();
  if (!dynamic && *position == size)
    return node.emitError() << describeNode(node) << ": position " << size
                            << " is outside a sequence of " << size,
           failure();
  Type type = node.getResult(0).getType();
  Value result =
      dynamic ? pick(node.getLoc(), **elements, dynamic, type)
              : pick(node.getLoc(), {(**elements)[*position]}, Value(), type);
  node.getResult(0).replaceAllUsesWith(result);
  return success();
}
