//===- KilnHostOps.cpp - The kiln dialect's host ops ------------*- C++ -*-===//
//
// Verifiers and memory effects of the ops host code runs on buffers:
// launches, host buffers from the runtime, checks and barriers.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

std::string kiln::getKernelSymbolName(SymbolRefAttr entryPoint) {
  return ("__kiln_kernel_" + entryPoint.getRootReference().getValue() + "_" +
          entryPoint.getLeafReference().getValue())
      .str();
}

ExecutableOp kiln::lookupExecutable(Operation *from, SymbolRefAttr entryPoint,
                                    SymbolTableCollection &symbols) {
  return symbols.lookupNearestSymbolFrom<ExecutableOp>(
      from, entryPoint.getRootReference());
}

uint64_t kiln::getWorkgroupScratchBytes(ExecutableOp executable,
                                        StringRef exportName) {
  uint64_t bytes = 0;
  for (auto variant : executable.getOps<ExecutableVariantOp>()) {
    // A kernel from the object cache: its export says.
    for (auto exportOp : variant.getExportOps())
      if (auto attr = exportOp->getAttrOfType<IntegerAttr>(
              KilnDialect::getWorkgroupScratchBytesAttrName());
          attr && exportOp.getSymName() == exportName)
        bytes = std::max(bytes, attr.getValue().getZExtValue());
    ModuleOp kernels = variant.getInnerModule();
    Operation *kernel =
        kernels ? SymbolTable::lookupSymbolIn(kernels, exportName) : nullptr;
    if (auto attr = kernel
                        ? kernel->getAttrOfType<IntegerAttr>(
                              KilnDialect::getWorkgroupScratchBytesAttrName())
                        : nullptr)
      bytes = std::max(bytes, attr.getValue().getZExtValue());
  }
  return bytes;
}

LogicalResult LaunchOp::verify() {
  if (getEntryPoint().getNestedReferences().size() != 1)
    return emitOpError() << "entry point must be @executable::@export, got "
                         << getEntryPoint();
  for (Value buffer : llvm::concat<Value>(getInputs(), getOutputs())) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.getLayout().isIdentity())
      return emitOpError() << "bindings must have an identity layout, got "
                           << type;
  }
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  // The executables may already have been linked into the host module.
  if (symbols.lookupNearestSymbolFrom(*this, getEntryPoint()))
    return success();
  if (!lookupExecutable(*this, getEntryPoint(), symbols))
    return emitOpError() << "refers to @"
                         << getEntryPoint().getRootReference().getValue()
                         << ", which is not a kiln.executable";
  return success();
}

void LaunchOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getInputsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &operand);
  for (OpOperand &operand : getOutputsMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &operand);
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

LogicalResult AllocOp::verify() {
  MemRefType type = getType();
  if (!type.getLayout().isIdentity())
    return emitOpError() << "allocates buffers of identity layout, got "
                         << type;
  if (getDynamicSizes().size() != static_cast<size_t>(type.getNumDynamicDims()))
    return emitOpError() << "takes one size per dynamic dimension of " << type
                         << " (" << type.getNumDynamicDims() << "), got "
                         << getDynamicSizes().size();
  if (std::optional<uint64_t> alignment = getAlignment())
    if (*alignment == 0 || !llvm::isPowerOf2_64(*alignment))
      return emitOpError() << "alignment must be a power of two, got "
                           << *alignment;
  return success();
}

//===----------------------------------------------------------------------===//
// Host values
//===----------------------------------------------------------------------===//

LogicalResult OptimizationBarrierOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, operands.getTypes());
  return success();
}

/// True for the element types the runtime's checks compare.
static bool isCheckableElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

LogicalResult CheckOp::verify() {
  auto describe = [](Type type) -> std::optional<Type> {
    if (auto shaped = dyn_cast<ShapedType>(type))
      return shaped.hasRank() ? std::optional(shaped.getElementType())
                              : std::nullopt;
    if (type.isIntOrFloat())
      return type;
    return std::nullopt;
  };
  std::optional<Type> actual = describe(getActual().getType());
  if (!actual || !isCheckableElementType(*actual))
    return emitOpError() << "checks ranked tensors, memrefs or scalars of "
                            "i1, i8, i16, i32, i64, f16, bf16, f32 or f64, "
                            "got "
                         << getActual().getType();
  bool binary = getKind() == CheckKind::Eq || getKind() == CheckKind::AlmostEq;
  if (binary != static_cast<bool>(getExpected()))
    return emitOpError() << "'" << stringifyCheckKind(getKind()) << "' takes "
                         << (binary ? "two operands" : "one operand");
  if (getExpected()) {
    std::optional<Type> expected = describe(getExpected().getType());
    if (!expected || *expected != *actual)
      return emitOpError() << "compares values of one element type, got "
                           << getActual().getType() << " and "
                           << getExpected().getType();
  }
  if (getKind() == CheckKind::AlmostEq && !isa<FloatType>(*actual))
    return emitOpError() << "'almost_eq' compares floats, got "
                         << getActual().getType();
  if (getAtol().convertToFloat() < 0 || getRtol().convertToFloat() < 0)
    return emitOpError() << "tolerances must not be negative";
  return success();
}

void CheckOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getOperation()->getOpOperands())
    if (isa<MemRefType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
  // The runtime records the outcome: never dead, never reordered across
  // other checks.
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}
