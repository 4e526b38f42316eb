//===- Loops.cpp - Loop and Scan ------------------------------------------===//
//
// Loop and Scan become scf.while, each carrying its loop-carried values and
// one tensor per scan output that the iterations fill row by row. A scan
// output's row shape is known only once the body ran (it may depend on the
// iteration's values), so its tensor is allocated at the first iteration:
// a Scan's with its scanned length's rows, a Loop's with room that doubles
// when it runs out, up to its trip count (a Loop may stop on its condition
// long before it: exporters give while-loops M = INT64_MAX).
//
//===----------------------------------------------------------------------===//

#include "ControlFlow.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <limits>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

//===----------------------------------------------------------------------===//
// Scan outputs: tensors filled row by row
//===----------------------------------------------------------------------===//

/// The tensor a scan output of `type` (rows along dim 0) starts from: no
/// rows, and no elements in its other dynamic dims either (the first
/// iteration allocates it).
static Value createRows(OpBuilder &b, Location loc, RankedTensorType type) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> sizes(type.getNumDynamicDims(), zero);
  return tensor::EmptyOp::create(b, loc, type, sizes);
}

/// How many rows a scan output's tensor gets when it has no room left.
struct RowCapacity {
  /// All of them at once (Scan: its scanned length).
  Value exact;
  /// Twice as many as before (at least 4), but never more than this
  /// (Loop: its trip count, which may be INT64_MAX for a loop that stops
  /// on its condition); null for no bound.
  Value limit;
};

/// `rows` with `element` written as row `row` at iteration `iteration`:
/// when `rows` has no room for it (the first iteration, or it ran out)
/// it is reallocated first, as `capacity` says. Every iteration's element
/// must have the first's shape, checked at run time where it is dynamic.
static FailureOr<Value> appendRow(NodeConverter &node, OpBuilder &b, Value rows,
                                  Value element, Value iteration, Value row,
                                  RowCapacity capacity, unsigned output) {
  Location loc = node.getLoc();
  auto rowsType = cast<RankedTensorType>(rows.getType());
  auto elementType = dyn_cast<RankedTensorType>(element.getType());
  if (!elementType || elementType.getRank() + 1 != rowsType.getRank())
    return node.error() << "scan output " << output << " is "
                        << element.getType() << " in the body; its rows are "
                        << rowsType,
           failure();
  // The body may give a static shape where the node's type is dynamic.
  auto rowType = RankedTensorType::get(rowsType.getShape().drop_front(),
                                       rowsType.getElementType());
  FailureOr<Value> cast =
      castTo(node, b, element, rowType, "scan output " + Twine(output));
  if (failed(cast))
    return failure();
  element = *cast;
  Value held = tensor::DimOp::create(b, loc, rows, 0);
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, iteration, held);
  auto grow = scf::IfOp::create(b, loc, TypeRange{rowsType}, full,
                                /*withElseRegion=*/true);
  {
    OpBuilder then = OpBuilder::atBlockEnd(&grow.getThenRegion().front());
    Value size = capacity.exact;
    if (!size) {
      Value doubled = arith::MulIOp::create(
          then, loc, held, arith::ConstantIndexOp::create(then, loc, 2));
      size = arith::MaxUIOp::create(
          then, loc, doubled, arith::ConstantIndexOp::create(then, loc, 4));
      if (capacity.limit)
        size = arith::MinUIOp::create(then, loc, size, capacity.limit);
    }
    SmallVector<Value> sizes;
    if (rowsType.isDynamicDim(0))
      sizes.push_back(size);
    for (int64_t d = 1; d < rowsType.getRank(); ++d)
      if (rowsType.isDynamicDim(d))
        sizes.push_back(tensor::DimOp::create(then, loc, element, d - 1));
    Value empty = tensor::EmptyOp::create(then, loc, rowsType, sizes);
    SmallVector<OpFoldResult> offsets(rowsType.getRank(), then.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rowsType.getRank(), then.getIndexAttr(1));
    SmallVector<OpFoldResult> heldSizes =
        tensor::getMixedSizes(then, loc, rows);
    Value copied = tensor::InsertSliceOp::create(then, loc, rows, empty,
                                                 offsets, heldSizes, strides);
    scf::YieldOp::create(then, loc, copied);
    OpBuilder otherwise = OpBuilder::atBlockEnd(&grow.getElseRegion().front());
    scf::YieldOp::create(otherwise, loc, rows);
  }
  Value grown = grow.getResult(0);
  for (int64_t d = 1; d < rowsType.getRank(); ++d) {
    if (!rowsType.isDynamicDim(d))
      continue;
    Value want = tensor::DimOp::create(b, loc, grown, d);
    Value got = tensor::DimOp::create(b, loc, element, d - 1);
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, want, got),
        "scan output " + Twine(output) + " has {0} in dim " + Twine(d - 1) +
            " at this iteration and {1} at the first",
        {got, want}, &b);
  }
  SmallVector<OpFoldResult> offsets(rowsType.getRank(), b.getIndexAttr(0));
  offsets[0] = row;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, element);
  sizes.insert(sizes.begin(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> strides(rowsType.getRank(), b.getIndexAttr(1));
  return Value(tensor::InsertSliceOp::create(b, loc, element, grown, offsets,
                                             sizes, strides));
}

//===----------------------------------------------------------------------===//
// Loop
//===----------------------------------------------------------------------===//

LogicalResult onnx_plugin::convertLoop(NodeConverter &node,
                                       SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({})))
    return failure();
  Region *graph = getGraph(node, "body");
  FailureOr<SmallVector<RankedTensorType>> types = getResultTypes(node);
  if (!graph || failed(types))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Block &body = graph->front();
  unsigned carried = node.getNumInputs() - 2;
  unsigned scans = node.getNumResults() - carried;
  auto yield = cast<YieldOp>(body.getTerminator());
  if (body.getNumArguments() != carried + 2 ||
      yield.getValues().size() != 1 + carried + scans)
    return node.error() << "its body takes " << body.getNumArguments()
                        << " inputs and returns " << yield.getValues().size()
                        << "; the node has " << node.getNumInputs()
                        << " inputs and " << node.getNumResults() << " outputs",
           failure();

  Type i64 = b.getI64Type();
  bool hasTripCount = node.hasInput(0);
  Value tripCount = arith::ConstantIntOp::create(
      b, loc, i64, std::numeric_limits<int64_t>::max());
  if (hasTripCount) {
    FailureOr<Value> m =
        extractScalar(node, b, node.input(0), "the trip count M");
    if (failed(m))
      return failure();
    tripCount = *m;
  }
  Value condition = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  if (node.hasInput(1)) {
    FailureOr<Value> c =
        extractScalar(node, b, node.input(1), "the condition cond");
    if (failed(c))
      return failure();
    condition = *c;
  }
  // Carried: the iteration, the condition, the values, the scan outputs'
  // rows.
  SmallVector<Value> inits = {arith::ConstantIntOp::create(b, loc, i64, 0),
                              condition};
  for (unsigned k = 0; k < carried; ++k) {
    FailureOr<Value> init = castTo(node, b, node.input(2 + k), (*types)[k],
                                   "loop-carried input " + Twine(k));
    if (failed(init))
      return failure();
    inits.push_back(*init);
  }
  SmallVector<RankedTensorType> rowsTypes;
  for (unsigned j = 0; j < scans; ++j) {
    RankedTensorType type = (*types)[carried + j];
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = ShapedType::kDynamic;
    rowsTypes.push_back(type.clone(shape));
    inits.push_back(createRows(b, loc, rowsTypes.back()));
  }
  TypeRange initTypes = ValueRange(inits).getTypes();
  // The scan outputs' rows double as they fill, up to the trip count:
  // exporters write while-loops with M = INT64_MAX.
  RowCapacity capacity;
  if (hasTripCount) {
    Value positive = arith::MaxSIOp::create(
        b, loc, tripCount, arith::ConstantIntOp::create(b, loc, i64, 1));
    capacity.limit =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), positive);
  }

  bool failedInside = false;
  auto whileOp = scf::WhileOp::create(
      b, loc, initTypes, inits,
      [&](OpBuilder &before, Location loc, ValueRange args) {
        Value more = arith::CmpIOp::create(
            before, loc, arith::CmpIPredicate::slt, args[0], tripCount);
        Value go = arith::AndIOp::create(before, loc, more, args[1]);
        scf::ConditionOp::create(before, loc, go, args);
      },
      [&](OpBuilder &after, Location loc, ValueRange args) {
        SmallVector<Value> arguments = {
            fromScalar(after, loc, args[0], body.getArgument(0).getType()),
            fromScalar(after, loc, args[1], body.getArgument(1).getType())};
        for (unsigned k = 0; k < carried; ++k) {
          FailureOr<Value> value = castTo(node, after, args[2 + k],
                                          body.getArgument(2 + k).getType(),
                                          "loop-carried input " + Twine(k));
          if (failed(value)) {
            failedInside = true;
            return;
          }
          arguments.push_back(*value);
        }
        Block *block = after.getInsertionBlock();
        SmallVector<Value> yielded =
            inlineGraph(body, *block, block->end(), arguments);
        after.setInsertionPointToEnd(block);
        FailureOr<Value> next =
            extractScalar(node, after, yielded[0], "the body's condition");
        if (failed(next)) {
          failedInside = true;
          return;
        }
        Value iteration = arith::IndexCastOp::create(
            after, loc, after.getIndexType(), args[0]);
        SmallVector<Value> nextValues = {
            arith::AddIOp::create(
                after, loc, args[0],
                arith::ConstantIntOp::create(after, loc, i64, 1)),
            *next};
        for (unsigned k = 0; k < carried; ++k) {
          FailureOr<Value> value =
              castTo(node, after, yielded[1 + k], (*types)[k],
                     "loop-carried output " + Twine(k));
          if (failed(value)) {
            failedInside = true;
            return;
          }
          nextValues.push_back(*value);
        }
        for (unsigned j = 0; j < scans; ++j) {
          FailureOr<Value> rows = appendRow(node, after, args[2 + carried + j],
                                            yielded[1 + carried + j], iteration,
                                            iteration, capacity, j);
          if (failed(rows)) {
            failedInside = true;
            return;
          }
          nextValues.push_back(*rows);
        }
        scf::YieldOp::create(after, loc, nextValues);
      });
  if (failedInside)
    return failure();
  for (unsigned k = 0; k < carried; ++k)
    results.push_back(whileOp.getResult(2 + k));
  // The rows the iterations filled.
  Value count = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                           whileOp.getResult(0));
  for (unsigned j = 0; j < scans; ++j) {
    Value rows = whileOp.getResult(2 + carried + j);
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, rows);
    sizes[0] = count;
    SmallVector<OpFoldResult> offsets(sizes.size(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(sizes.size(), b.getIndexAttr(1));
    Value filled =
        tensor::ExtractSliceOp::create(b, loc, rows, offsets, sizes, strides);
    FailureOr<Value> result = castTo(node, b, filled, (*types)[carried + j],
                                     "scan output " + Twine(j));
    if (failed(result))
      return failure();
    results.push_back(*result);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

/// The INTS attribute `name`, `count` zeros when absent; an error when it
/// has another length.
static FailureOr<SmallVector<int64_t>>
getPerInput(NodeConverter &node, StringRef name, unsigned count) {
  FailureOr<std::optional<SmallVector<int64_t>>> values = node.getInts(name);
  if (failed(values))
    return failure();
  if (!*values)
    return SmallVector<int64_t>(count, 0);
  if ((*values)->size() != count)
    return node.error() << "attribute '" << name << "' has "
                        << (*values)->size() << " values; it needs " << count,
           failure();
  return **values;
}

LogicalResult onnx_plugin::convertScan(NodeConverter &node,
                                       SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"num_scan_inputs", "scan_input_axes",
                                   "scan_input_directions", "scan_output_axes",
                                   "scan_output_directions"})))
    return failure();
  Region *graph = getGraph(node, "body");
  FailureOr<SmallVector<RankedTensorType>> types = getResultTypes(node);
  FailureOr<int64_t> scanned = node.getInt("num_scan_inputs", 0);
  if (!graph || failed(types) || failed(scanned))
    return failure();
  unsigned inputs = node.getNumInputs();
  if (*scanned < 1 || *scanned > inputs)
    return node.error() << "num_scan_inputs is " << *scanned
                        << "; it must be between 1 and the node's " << inputs
                        << " inputs",
           failure();
  unsigned states = inputs - *scanned;
  unsigned scans = node.getNumResults() - states;
  FailureOr<SmallVector<int64_t>> inputAxes =
      getPerInput(node, "scan_input_axes", *scanned);
  FailureOr<SmallVector<int64_t>> inputDirections =
      getPerInput(node, "scan_input_directions", *scanned);
  FailureOr<SmallVector<int64_t>> outputAxes =
      getPerInput(node, "scan_output_axes", scans);
  FailureOr<SmallVector<int64_t>> outputDirections =
      getPerInput(node, "scan_output_directions", scans);
  if (failed(inputAxes) || failed(inputDirections) || failed(outputAxes) ||
      failed(outputDirections))
    return failure();
  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  Block &body = graph->front();

  // The scanned length: the first scan input's, which the others match.
  SmallVector<Value> scannedInputs;
  SmallVector<int64_t> axes;
  Value steps;
  for (unsigned i = 0; i < *scanned; ++i) {
    FailureOr<RankedTensorType> type = node.getRankedInputType(states + i);
    if (failed(type))
      return failure();
    FailureOr<int64_t> axis =
        node.normalizeAxis((*inputAxes)[i], type->getRank(), "scan_input_axes");
    if (failed(axis))
      return failure();
    axes.push_back(*axis);
    Value input = node.input(states + i);
    scannedInputs.push_back(input);
    Value length = tensor::DimOp::create(b, loc, input, *axis);
    if (!steps) {
      steps = length;
      continue;
    }
    node.require(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, length, steps),
        "scan input " + Twine(i) +
            " has {0} along its axis; the "
            "first has {1}",
        {length, steps});
  }
  SmallVector<Value> inits;
  for (unsigned k = 0; k < states; ++k) {
    FailureOr<Value> init =
        castTo(node, b, node.input(k), (*types)[k], "state input " + Twine(k));
    if (failed(init))
      return failure();
    inits.push_back(*init);
  }
  // Rows along dim 0; moved to their output axis after the loop.
  SmallVector<RankedTensorType> rowsTypes;
  SmallVector<int64_t> resultAxes;
  for (unsigned j = 0; j < scans; ++j) {
    RankedTensorType type = (*types)[states + j];
    FailureOr<int64_t> axis = node.normalizeAxis(
        (*outputAxes)[j], type.getRank(), "scan_output_axes");
    if (failed(axis))
      return failure();
    resultAxes.push_back(*axis);
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + *axis);
    shape.insert(shape.begin(), ShapedType::kDynamic);
    rowsTypes.push_back(type.clone(shape));
    inits.push_back(createRows(b, loc, rowsTypes.back()));
  }

  // scf.while, not scf.for: scf.for's canonicalization would give the
  // rows the static type of their empty start.
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value last = arith::SubIOp::create(b, loc, steps, one);
  inits.insert(inits.begin(), zero);
  TypeRange initTypes = ValueRange(inits).getTypes();
  bool failedInside = false;
  auto loop = scf::WhileOp::create(
      b, loc, initTypes, inits,
      [&](OpBuilder &before, Location loc, ValueRange args) {
        Value more = arith::CmpIOp::create(
            before, loc, arith::CmpIPredicate::slt, args[0], steps);
        scf::ConditionOp::create(before, loc, more, args);
      },
      [&](OpBuilder &inner, Location loc, ValueRange carried) {
        Value step = carried[0];
        ValueRange args = carried.drop_front();
        Value reversed = arith::SubIOp::create(inner, loc, last, step);
        SmallVector<Value> arguments;
        auto fail = [&] { failedInside = true; };
        for (unsigned k = 0; k < states; ++k) {
          FailureOr<Value> value =
              castTo(node, inner, args[k], body.getArgument(k).getType(),
                     "state " + Twine(k));
          if (failed(value))
            return fail();
          arguments.push_back(*value);
        }
        for (auto [i, input] : llvm::enumerate(scannedInputs)) {
          auto type = cast<RankedTensorType>(input.getType());
          int64_t axis = axes[i];
          SmallVector<OpFoldResult> offsets(type.getRank(),
                                            inner.getIndexAttr(0));
          offsets[axis] = (*inputDirections)[i] ? reversed : step;
          SmallVector<OpFoldResult> sizes =
              tensor::getMixedSizes(inner, loc, input);
          sizes[axis] = inner.getIndexAttr(1);
          SmallVector<OpFoldResult> strides(type.getRank(),
                                            inner.getIndexAttr(1));
          SmallVector<int64_t> shape(type.getShape());
          shape.erase(shape.begin() + axis);
          Value element = tensor::ExtractSliceOp::create(
              inner, loc, type.clone(shape), input, offsets, sizes, strides);
          FailureOr<Value> value = castTo(
              node, inner, element, body.getArgument(states + i).getType(),
              "scan input " + Twine(i));
          if (failed(value))
            return fail();
          arguments.push_back(*value);
        }
        Block *block = inner.getInsertionBlock();
        SmallVector<Value> yielded =
            inlineGraph(body, *block, block->end(), arguments);
        inner.setInsertionPointToEnd(block);
        SmallVector<Value> next = {
            arith::AddIOp::create(inner, loc, step, one)};
        for (unsigned k = 0; k < states; ++k) {
          FailureOr<Value> value = castTo(node, inner, yielded[k], (*types)[k],
                                          "state output " + Twine(k));
          if (failed(value))
            return fail();
          next.push_back(*value);
        }
        for (unsigned j = 0; j < scans; ++j) {
          FailureOr<Value> rows =
              appendRow(node, inner, args[states + j], yielded[states + j],
                        step, (*outputDirections)[j] ? reversed : step,
                        RowCapacity{/*exact=*/steps, /*limit=*/nullptr}, j);
          if (failed(rows))
            return fail();
          next.push_back(*rows);
        }
        scf::YieldOp::create(inner, loc, next);
      });
  ValueRange loopResults = loop.getResults().drop_front();
  if (failedInside)
    return failure();
  for (unsigned k = 0; k < states; ++k)
    results.push_back(loopResults[k]);
  for (unsigned j = 0; j < scans; ++j) {
    Value rows = loopResults[states + j];
    RankedTensorType type = (*types)[states + j];
    int64_t axis = resultAxes[j];
    if (axis != 0) {
      // Rows along dim 0 moved to `axis`: result dim d reads dim perm[d].
      SmallVector<int64_t> permutation;
      for (int64_t d = 1; d <= axis; ++d)
        permutation.push_back(d);
      permutation.push_back(0);
      for (int64_t d = axis + 1; d < type.getRank(); ++d)
        permutation.push_back(d);
      SmallVector<OpFoldResult> sizes;
      for (int64_t d : permutation)
        sizes.push_back(tensor::getMixedSizes(b, loc, rows)[d]);
      Value init =
          tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
      rows = linalg::TransposeOp::create(b, loc, rows, init, permutation)
                 .getResult()[0];
    }
    FailureOr<Value> result =
        castTo(node, b, rows, type, "scan output " + Twine(j));
    if (failed(result))
      return failure();
    results.push_back(*result);
  }
  return success();
}
