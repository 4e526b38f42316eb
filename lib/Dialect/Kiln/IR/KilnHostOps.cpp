//===- KilnHostOps.cpp - The kiln dialect's host ops ------------*- C++ -*-===//
//
// Verifiers and memory effects of the ops host code runs on buffers:
// launches, host buffers from the runtime, checks and barriers.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

std::string kiln::getKernelSymbolName(SymbolRefAttr entryPoint) {
  ArrayRef<FlatSymbolRefAttr> nested = entryPoint.getNestedReferences();
  std::string name =
      ("__kiln_kernel_" + entryPoint.getRootReference().getValue() + "_" +
       entryPoint.getLeafReference().getValue())
          .str();
  // @executable::@variant::@export: the variant's kernel, one of several.
  if (nested.size() == 2)
    name += "." + nested.front().getValue().str();
  return name;
}

bool kiln::isMultiVariant(ExecutableOp executable) {
  return llvm::range_size(executable.getVariantOps()) > 1;
}

SymbolRefAttr kiln::getLaunchEntryPoint(ExecutableOp executable,
                                        ExecutableVariantOp variant,
                                        ExecutableExportOp exportOp) {
  SmallVector<FlatSymbolRefAttr> nested;
  if (isMultiVariant(executable))
    nested.push_back(FlatSymbolRefAttr::get(variant.getSymNameAttr()));
  nested.push_back(FlatSymbolRefAttr::get(exportOp.getSymNameAttr()));
  return SymbolRefAttr::get(executable.getSymNameAttr(), nested);
}

ExecutableOp kiln::lookupExecutable(Operation *from, SymbolRefAttr entryPoint,
                                    SymbolTableCollection &symbols) {
  return symbols.lookupNearestSymbolFrom<ExecutableOp>(
      from, entryPoint.getRootReference());
}

uint64_t kiln::getWorkgroupScratchBytes(ExecutableOp executable,
                                        StringRef exportName,
                                        StringRef variantName) {
  uint64_t bytes = 0;
  for (auto variant : executable.getOps<ExecutableVariantOp>()) {
    if (!variantName.empty() && variant.getSymName() != variantName)
      continue;
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
  size_t depth = getEntryPoint().getNestedReferences().size();
  if (depth != 1 && depth != 2)
    return emitOpError() << "entry point must be @executable::@export or "
                            "@executable::@variant::@export, got "
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

//===----------------------------------------------------------------------===//
// AssertOp
//===----------------------------------------------------------------------===//

LogicalResult AssertOp::verify() {
  if (getMessage().empty())
    return emitOpError() << "needs a message saying what failed";
  if ((*this)->getParentOfType<ExecutableOp>())
    return emitOpError() << "runs on the host: a kernel cannot end the call";
  // Each {N} must name one of the values.
  StringRef rest = getMessage();
  while (!rest.empty()) {
    size_t open = rest.find('{');
    if (open == StringRef::npos)
      break;
    rest = rest.drop_front(open + 1);
    size_t close = rest.find('}');
    unsigned index;
    if (close == StringRef::npos || close == 0 ||
        rest.take_front(close).getAsInteger(10, index))
      continue; // a brace of the text
    if (index >= getValues().size())
      return emitOpError() << "message refers to {" << index << "}, but "
                           << getValues().size() << " values are given";
    rest = rest.drop_front(close + 1);
  }
  return success();
}

void AssertOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Ending the call is an effect: never dead, never moved across other
  // effects (what it guards comes after it).
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

namespace {
/// An assertion that always holds goes away.
struct EraseTrueAssertion : public OpRewritePattern<AssertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AssertOp op,
                                PatternRewriter &rewriter) const override {
    if (!matchPattern(op.getCondition(), m_One()))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void AssertOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                           MLIRContext *context) {
  patterns.add<EraseTrueAssertion>(context);
}

//===----------------------------------------------------------------------===//
// CallExternOp
//===----------------------------------------------------------------------===//

/// Whether `name` is one a runtime extension can give a symbol: letters,
/// digits, '_', '.' and '-' (a word of the module's metadata).
static bool isExternName(StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '-';
  });
}

LogicalResult CallExternOp::verify() {
  if (!isExternName(getCallee()))
    return emitOpError() << "callee '" << getCallee()
                         << "' must be letters, digits, '_', '.' and '-'";
  for (auto [index, type] : llvm::enumerate(getArgs().getTypes())) {
    Type element = type;
    if (auto shaped = dyn_cast<ShapedType>(type)) {
      if (!isa<RankedTensorType, MemRefType>(type))
        return emitOpError() << "operand #" << index
                             << " must be a ranked tensor, a memref or a "
                                "scalar, got "
                             << type;
      element = shaped.getElementType();
    }
    if (!element.isIndex() && !isCheckableElementType(element))
      return emitOpError() << "operand #" << index << " has type " << type
                           << "; the runtime passes i1, i8, i16, i32, i64, "
                              "index, f16, bf16, f32 and f64 elements";
  }
  if (!getResults().empty() && !getOuts().empty())
    return emitOpError() << "has results on tensors or outs on buffers, not "
                            "both";
  int64_t dynamicDims = 0;
  for (Type type : getResultTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    dynamicDims += tensor.getNumDynamicDims();
    if (!isCheckableElementType(tensor.getElementType()))
      return emitOpError() << "result type " << type
                           << " has an element type the runtime does not "
                              "pass";
  }
  if (!getResults().empty() &&
      static_cast<int64_t>(getResultDims().size()) != dynamicDims)
    return emitOpError() << "takes one dim per dynamic dim of its results ("
                         << dynamicDims << "), got " << getResultDims().size();
  for (Type type : getOuts().getTypes())
    if (!cast<MemRefType>(type).getLayout().isIdentity())
      return emitOpError() << "outs must have an identity layout, got " << type;
  return success();
}

std::string CallExternOp::getSignature() {
  // On buffers, as it was on tensors: memrefs were tensors, outs results.
  auto asTensor = [](Type type) -> Type {
    if (auto memref = dyn_cast<MemRefType>(type))
      return RankedTensorType::get(memref.getShape(), memref.getElementType());
    return type;
  };
  SmallVector<Type> inputs =
      llvm::map_to_vector(getArgs().getTypes(), asTensor);
  SmallVector<Type> results(getResultTypes());
  for (Type type : getOuts().getTypes())
    results.push_back(asTensor(type));
  // (args)->(results): the results in parentheses even when one.
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleave(inputs, os, ",");
  os << ")->(";
  llvm::interleave(results, os, ",");
  os << ")";
  llvm::erase(text, ' ');
  return text;
}

void CallExternOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : getArgsMutable())
    if (isa<MemRefType>(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand);
  for (OpOperand &operand : getOutsMutable())
    effects.emplace_back(MemoryEffects::Write::get(), &operand);
  // What the callee does besides is its own: never dead, never reordered.
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

LogicalResult CallKernelExternOp::verify() {
  if (!isExternName(getCallee()))
    return emitOpError() << "callee '" << getCallee()
                         << "' must be letters, digits, '_', '.' and '-'";
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
