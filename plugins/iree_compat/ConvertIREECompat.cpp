//===- ConvertIREECompat.cpp - IREE's test ops into Kiln's ----------------===//
//
// Rewrites the check/util/flow ops of IREE's end-to-end test programs into
// kiln.check, kiln.optimization_barrier and upstream ops, and the `iree`
// input conversion that runs it.
//
//===----------------------------------------------------------------------===//

#include "IREECompat.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Input/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTIREECOMPATPASS
#include "Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::iree_compat;

//===----------------------------------------------------------------------===//
// Constants and barriers
//===----------------------------------------------------------------------===//

static void convert(IRRewriter &rewriter, UnfoldableConstantOp op) {
  Value constant =
      arith::ConstantOp::create(rewriter, op.getLoc(), op.getValue());
  rewriter.replaceOpWithNewOp<kiln::OptimizationBarrierOp>(op, constant);
}

static void convert(IRRewriter &rewriter,
                    iree_compat::OptimizationBarrierOp op) {
  rewriter.replaceOpWithNewOp<kiln::OptimizationBarrierOp>(op,
                                                           op.getOperands());
}

static void convert(IRRewriter &rewriter, TensorDynamicConstantOp op) {
  Value constant = arith::ConstantOp::create(rewriter, op.getLoc(),
                                             cast<TypedAttr>(op.getValue()));
  Value cast =
      tensor::CastOp::create(rewriter, op.getLoc(), op.getType(), constant);
  rewriter.replaceOpWithNewOp<kiln::OptimizationBarrierOp>(op, cast);
}

static void convert(IRRewriter &rewriter, TensorTieShapeOp op) {
  rewriter.replaceOp(op, op.getOperand());
}

//===----------------------------------------------------------------------===//
// Bitcasts
//===----------------------------------------------------------------------===//

/// `value` (a scalar) reinterpreted as an integer of its width.
static Value asInteger(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (isa<IntegerType>(type))
    return value;
  return arith::BitcastOp::create(
      b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
}

/// The integer `bits` reinterpreted as `type` (of the same width).
static Value fromInteger(OpBuilder &b, Location loc, Value bits, Type type) {
  if (bits.getType() == type)
    return bits;
  return arith::BitcastOp::create(b, loc, type, bits);
}

static LogicalResult convert(IRRewriter &rewriter, TensorBitCastOp op) {
  Location loc = op.getLoc();
  RankedTensorType source = op.getSource().getType();
  RankedTensorType result = op.getResult().getType();
  Type sourceElement = source.getElementType();
  Type resultElement = result.getElementType();
  if (!sourceElement.isIntOrFloat() || !resultElement.isIntOrFloat())
    return op.emitError() << "bitcasts between integer and float tensors "
                             "only, got "
                          << source << " to " << result;
  unsigned sourceBits = sourceElement.getIntOrFloatBitWidth();
  unsigned resultBits = resultElement.getIntOrFloatBitWidth();

  // One element for one: an elementwise bitcast.
  if (sourceBits == resultBits && source.getShape() == result.getShape()) {
    Value cast = op.getSource();
    if (source != result)
      cast = arith::BitcastOp::create(rewriter, loc, result, cast);
    rewriter.replaceOp(op, cast);
    return success();
  }

  // Packing or unpacking along the innermost dimension.
  bool sameOuter =
      source.getRank() == result.getRank() && source.getRank() > 0 &&
      source.getShape().drop_back() == result.getShape().drop_back();
  if (!source.hasStaticShape() || !result.hasStaticShape() || !sameOuter ||
      (sourceBits % resultBits != 0 && resultBits % sourceBits != 0) ||
      source.getShape().back() * sourceBits !=
          result.getShape().back() * resultBits)
    return op.emitError()
           << "bitcast from " << source << " to " << result
           << " is not supported: Kiln reinterprets elements of one width, "
              "or packs and unpacks static tensors along the innermost "
              "dimension";

  int64_t rank = result.getRank();
  MLIRContext *context = rewriter.getContext();
  Value init =
      tensor::EmptyOp::create(rewriter, loc, result.getShape(), resultElement);
  SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value source_ = op.getSource();
  auto body = [&](OpBuilder &b, Location loc, ValueRange) {
    SmallVector<Value> indices;
    for (int64_t dim = 0; dim < rank; ++dim)
      indices.push_back(linalg::IndexOp::create(b, loc, dim));
    Value inner = indices.back();
    Type wide = b.getIntegerType(std::max(sourceBits, resultBits));
    Value yielded;
    if (sourceBits > resultBits) {
      // Unpack: result element j is bits [w * (j % k), w * (j % k + 1)) of
      // source element j / k.
      int64_t k = sourceBits / resultBits;
      Value kValue = arith::ConstantIndexOp::create(b, loc, k);
      indices.back() = arith::DivUIOp::create(b, loc, inner, kValue);
      Value element = tensor::ExtractOp::create(b, loc, source_, indices);
      Value bits = asInteger(b, loc, element);
      Value lane = arith::IndexCastOp::create(
          b, loc, wide, arith::RemUIOp::create(b, loc, inner, kValue));
      Value shift = arith::MulIOp::create(
          b, loc, lane,
          arith::ConstantOp::create(b, loc,
                                    b.getIntegerAttr(wide, resultBits)));
      Value shifted = arith::ShRUIOp::create(b, loc, bits, shift);
      Value narrow = arith::TruncIOp::create(
          b, loc, b.getIntegerType(resultBits), shifted);
      yielded = fromInteger(b, loc, narrow, resultElement);
    } else {
      // Pack: result element j holds source elements j * k .. j * k + k - 1,
      // the first in the low bits.
      int64_t k = resultBits / sourceBits;
      Value packed =
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(wide, 0));
      Value base = arith::MulIOp::create(
          b, loc, inner, arith::ConstantIndexOp::create(b, loc, k));
      for (int64_t lane = 0; lane < k; ++lane) {
        indices.back() = arith::AddIOp::create(
            b, loc, base, arith::ConstantIndexOp::create(b, loc, lane));
        Value element = tensor::ExtractOp::create(b, loc, source_, indices);
        Value bits =
            arith::ExtUIOp::create(b, loc, wide, asInteger(b, loc, element));
        Value shifted = arith::ShLIOp::create(
            b, loc, bits,
            arith::ConstantOp::create(
                b, loc, b.getIntegerAttr(wide, lane * sourceBits)));
        packed = arith::OrIOp::create(b, loc, packed, shifted);
      }
      yielded = fromInteger(b, loc, packed, resultElement);
    }
    linalg::YieldOp::create(b, loc, yielded);
  };
  (void)context;
  auto generic =
      linalg::GenericOp::create(rewriter, loc, result, ValueRange(),
                                ValueRange{init}, maps, iterators, body);
  rewriter.replaceOp(op, generic.getResult(0));
  return success();
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// The element type the runtime compares for `type`, which holds `type`'s
/// values exactly, or null when there is none.
static Type getCheckableType(Type type) {
  MLIRContext *context = type.getContext();
  if (type.isIndex())
    return IntegerType::get(context, 64);
  if (auto integer = dyn_cast<IntegerType>(type)) {
    for (unsigned width : {1u, 8u, 16u, 32u, 64u})
      if (integer.getWidth() <= width)
        return IntegerType::get(context, width);
    return {};
  }
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (floatType.isF16() || floatType.isBF16() || floatType.isF32() ||
        floatType.isF64())
      return floatType;
    if (floatType.getWidth() <= 8)
      return Float32Type::get(context);
  }
  return {};
}

/// `value` with its elements converted exactly to `element`.
static Value widen(OpBuilder &b, Location loc, Value value, Type element) {
  Type type = value.getType();
  Type from = getElementTypeOrSelf(type);
  if (from == element)
    return value;
  Type target = element;
  if (auto shaped = dyn_cast<ShapedType>(type))
    target = shaped.clone(element);
  if (from.isIndex())
    return arith::IndexCastOp::create(b, loc, target, value);
  if (isa<FloatType>(from))
    return arith::ExtFOp::create(b, loc, target, value);
  // i1 stays i1; other narrow integers are sign-extended, as they print.
  return arith::ExtSIOp::create(b, loc, target, value);
}

static LogicalResult createCheck(IRRewriter &rewriter, Operation *op,
                                 CheckKind kind, Value actual, Value expected,
                                 float atol = 1e-4f, float rtol = 0.0f) {
  Type element = getElementTypeOrSelf(actual.getType());
  Type checkable = getCheckableType(element);
  if (!checkable)
    return op->emitError() << "Kiln cannot compare values of type "
                           << actual.getType();
  Location loc = op->getLoc();
  actual = widen(rewriter, loc, actual, checkable);
  if (expected)
    expected = widen(rewriter, loc, expected, checkable);
  // Exact floats compare bit for bit (but for NaNs), wherever they come
  // from; almost_eq needs floats.
  if (kind == CheckKind::AlmostEq && !isa<FloatType>(checkable))
    kind = CheckKind::Eq;
  rewriter.replaceOpWithNewOp<kiln::CheckOp>(
      op, CheckKindAttr::get(rewriter.getContext(), kind), actual, expected,
      /*runtime=*/Value(), rewriter.getF32FloatAttr(atol),
      rewriter.getF32FloatAttr(rtol));
  return success();
}

static Value materialize(IRRewriter &rewriter, Location loc,
                         ElementsAttr value) {
  return arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(value));
}

static LogicalResult convertCheck(IRRewriter &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto check = dyn_cast<ExpectTrueOp>(op))
    return createCheck(rewriter, op, CheckKind::True, check.getOperand(), {});
  if (auto check = dyn_cast<ExpectFalseOp>(op))
    return createCheck(rewriter, op, CheckKind::False, check.getOperand(), {});
  if (auto check = dyn_cast<ExpectAllTrueOp>(op))
    return createCheck(rewriter, op, CheckKind::True, check.getOperand(), {});
  if (auto check = dyn_cast<ExpectEqOp>(op))
    return createCheck(rewriter, op, CheckKind::Eq, check.getLhs(),
                       check.getRhs());
  if (auto check = dyn_cast<ExpectEqConstOp>(op))
    return createCheck(rewriter, op, CheckKind::Eq, check.getLhs(),
                       materialize(rewriter, loc, check.getValue()));
  if (auto check = dyn_cast<ExpectAlmostEqOp>(op))
    return createCheck(rewriter, op, CheckKind::AlmostEq, check.getLhs(),
                       check.getRhs(), check.getAtol().convertToFloat(),
                       check.getRtol().convertToFloat());
  if (auto check = dyn_cast<ExpectAlmostEqConstOp>(op))
    return createCheck(rewriter, op, CheckKind::AlmostEq, check.getLhs(),
                       materialize(rewriter, loc, check.getValue()),
                       check.getAtol().convertToFloat(),
                       check.getRtol().convertToFloat());
  return failure();
}

//===----------------------------------------------------------------------===//
// The pass and its registration
//===----------------------------------------------------------------------===//

namespace {
struct ConvertIREECompatPass
    : public kiln::impl::ConvertIREECompatPassBase<ConvertIREECompatPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<CheckDialect, UtilDialect, FlowDialect>(op->getDialect()))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool failed = false;
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case<UnfoldableConstantOp, iree_compat::OptimizationBarrierOp,
                    TensorDynamicConstantOp, TensorTieShapeOp>([&](auto typed) {
                convert(rewriter, typed);
                return success();
              })
              .Case<TensorBitCastOp>(
                  [&](auto typed) { return convert(rewriter, typed); })
              .Default(
                  [&](Operation *op) { return convertCheck(rewriter, op); });
      failed |= mlir::failed(result);
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace

void kiln::registerIREECompatDialects(DialectRegistry &registry) {
  registry.insert<CheckDialect, UtilDialect, FlowDialect>();
}

ArrayRef<StringRef> kiln::getIREECompatDialectNames() {
  static constexpr StringRef kNames[] = {"check", "util", "flow"};
  return kNames;
}

InputConversion kiln::getIREECompatInputConversion() {
  auto usesIREE = [](ModuleOp module) {
    bool found = false;
    module.walk([&](Operation *op) {
      found = isa<CheckDialect, UtilDialect, FlowDialect>(op->getDialect());
      return found ? WalkResult::interrupt() : WalkResult::advance();
    });
    return found;
  };
  return {"iree", usesIREE,
          [](OpPassManager &pm) { pm.addPass(createConvertIREECompatPass()); }};
}
