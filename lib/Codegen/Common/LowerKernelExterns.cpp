//===- LowerKernelExterns.cpp - Kernels calling runtime extensions --------===//
//
// kiln.call_kernel_extern to an indirect call through the module's slot for
// the callee (`__kiln_extern.NAME`, defined by host code and filled by the
// runtime at load), and the callee listed on the variant.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace kiln {
#define GEN_PASS_DEF_LOWERKERNELEXTERNSPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// `memref`'s first element as an !llvm.ptr: its aligned pointer plus its
/// offset in elements.
static FailureOr<Value> getElementPointer(OpBuilder &b, Location loc,
                                          Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0)
    return failure();
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value bytes =
      arith::MulIOp::create(b, loc, metadata.getOffset(),
                            arith::ConstantIndexOp::create(b, loc, bits / 8));
  Value address = arith::AddIOp::create(b, loc, base, bytes);
  Value integer = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
             b, loc, LLVM::LLVMPointerType::get(b.getContext()), integer)
      .getResult();
}

/// The slot of `name` in `module`, declared (defined by host code) on
/// first use.
static LLVM::GlobalOp getSlot(ModuleOp module, StringRef name) {
  std::string symbol = ("__kiln_extern." + name).str();
  if (auto existing = module.lookupSymbol<LLVM::GlobalOp>(symbol))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMPointerType::get(b.getContext()),
      /*isConstant=*/false, LLVM::Linkage::External, symbol, Attribute());
}

namespace {
struct LowerKernelExternsPass
    : public kiln::impl::LowerKernelExternsPassBase<LowerKernelExternsPass> {
  void runOnOperation() override {
    ExecutableVariantOp variant = getOperation();
    ModuleOp module = variant.getInnerModule();
    if (!module)
      return;
    SmallVector<CallKernelExternOp> calls;
    module.walk([&](CallKernelExternOp call) { calls.push_back(call); });
    if (calls.empty())
      return;

    MLIRContext *context = &getContext();
    Builder attrs(context);
    SmallVector<Attribute> entries;
    if (auto existing = variant->getAttrOfType<ArrayAttr>(
            KilnDialect::getExternsAttrName()))
      entries.assign(existing.begin(), existing.end());
    Type ptrType = LLVM::LLVMPointerType::get(context);
    for (CallKernelExternOp call : calls) {
      OpBuilder b(call);
      Location loc = call.getLoc();
      SmallVector<Value> args;
      for (Value arg : call.getArgs()) {
        if (isa<MemRefType>(arg.getType())) {
          FailureOr<Value> pointer = getElementPointer(b, loc, arg);
          if (failed(pointer)) {
            call.emitOpError() << "cannot pass " << arg.getType()
                               << ": its elements are not whole bytes";
            return signalPassFailure();
          }
          args.push_back(*pointer);
        } else if (arg.getType().isIndex()) {
          args.push_back(
              arith::IndexCastOp::create(b, loc, b.getI64Type(), arg));
        } else {
          args.push_back(arg);
        }
      }
      auto functionType = LLVM::LLVMFunctionType::get(
          LLVM::LLVMVoidType::get(context),
          llvm::map_to_vector(args, [](Value v) { return v.getType(); }));
      std::string signature;
      llvm::raw_string_ostream os(signature);
      os << functionType;
      llvm::erase(signature, ' ');

      // Listed once per name; two signatures for one name cannot both be
      // what an extension provides.
      StringRef name = call.getCallee();
      bool listed = false;
      for (Attribute entry : entries) {
        auto dictionary = cast<DictionaryAttr>(entry);
        if (dictionary.getAs<StringAttr>("name").getValue() != name)
          continue;
        StringRef other = dictionary.getAs<StringAttr>("signature").getValue();
        if (other != signature) {
          call.emitOpError()
              << "calls '" << name << "' as " << signature
              << ", and this variant calls it elsewhere as " << other;
          return signalPassFailure();
        }
        listed = true;
      }
      if (!listed)
        entries.push_back(attrs.getDictionaryAttr(
            {attrs.getNamedAttr("name", attrs.getStringAttr(name)),
             attrs.getNamedAttr("kind", attrs.getStringAttr("kernel")),
             attrs.getNamedAttr("signature", attrs.getStringAttr(signature))}));

      LLVM::GlobalOp slot = getSlot(module, name);
      Value address = LLVM::AddressOfOp::create(b, loc, slot);
      Value function = LLVM::LoadOp::create(b, loc, ptrType, address);
      SmallVector<Value> operands = {function};
      llvm::append_range(operands, args);
      LLVM::CallOp::create(b, loc, functionType, operands);
      call.erase();
    }
    variant->setAttr(KilnDialect::getExternsAttrName(),
                     ArrayAttr::get(context, entries));
  }
};
} // namespace
