//===- IREEOps.cpp - The parsed-only IREE ops -----------------------------===//

#include "IREECompat.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kiln::iree_compat;

#include "CheckDialect.cpp.inc"
#include "FlowDialect.cpp.inc"
#include "UtilDialect.cpp.inc"

void CheckDialect::initialize() {
  addOperations<ExpectTrueOp, ExpectFalseOp, ExpectAllTrueOp, ExpectEqOp,
                ExpectEqConstOp, ExpectAlmostEqOp, ExpectAlmostEqConstOp>();
}

void UtilDialect::initialize() {
  addOperations<UnfoldableConstantOp, OptimizationBarrierOp>();
}

void FlowDialect::initialize() {
  addOperations<TensorDynamicConstantOp, TensorTieShapeOp, TensorBitCastOp>();
}

//===----------------------------------------------------------------------===//
// util
//===----------------------------------------------------------------------===//

// %c = util.unfoldable_constant dense<[1, 2]> : tensor<2xi32>
ParseResult UnfoldableConstantOp::parse(OpAsmParser &parser,
                                        OperationState &result) {
  Attribute value;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseAttribute(value))
    return failure();
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed)
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a typed constant");
  result.addAttribute(getValueAttrName(result.name), typed);
  result.addTypes(typed.getType());
  return success();
}

void UnfoldableConstantOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  printer << " ";
  printer.printAttribute(getValue());
}

LogicalResult OptimizationBarrierOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

//===----------------------------------------------------------------------===//
// flow
//===----------------------------------------------------------------------===//

LogicalResult TensorDynamicConstantOp::verify() {
  auto valueType = cast<ShapedType>(getValue().getType());
  auto resultType = getResult().getType();
  if (valueType.getElementType() != resultType.getElementType() ||
      valueType.getRank() != resultType.getRank() ||
      failed(
          verifyCompatibleShape(valueType.getShape(), resultType.getShape())))
    return emitOpError() << "result type " << resultType
                         << " is not a less static form of " << valueType;
  return success();
}

LogicalResult TensorTieShapeOp::verify() {
  if (getDims().size() != getResult().getType().getNumDynamicDims())
    return emitOpError() << "needs one dimension per dynamic size of "
                         << getResult().getType();
  return success();
}

LogicalResult TensorBitCastOp::verify() {
  if (getSourceDims().size() != getSource().getType().getNumDynamicDims() ||
      getResultDims().size() != getResult().getType().getNumDynamicDims())
    return emitOpError() << "needs one dimension per dynamic size";
  return success();
}

#define GET_OP_CLASSES
#include "IREEOps.cpp.inc"
