//===- OutlineExternalDispatches.cpp - Hand-written dispatches ------------===//
//
// Each kiln.external_dispatch becomes an executable whose kernel is the
// external one, and a kiln.dispatch of it: the export keeps the op's
// workgroup count region; its function, already in the LLVM dialect (so
// configuration and codegen leave it alone), calls the kernel, which an
// object file defines (linked into the module) or a runtime extension
// provides (through the module's slot for it, filled at load).
//
//===----------------------------------------------------------------------===//

#include "kiln/DispatchFormation/Passes.h"
#include "kiln/Files/InputFiles.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {
#define GEN_PASS_DEF_OUTLINEEXTERNALDISPATCHESPASS
#include "kiln/DispatchFormation/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Fails, saying why, unless the object file or archive at `path` defines
/// `symbol` as a function.
static llvm::Error checkDefines(StringRef path, StringRef symbol) {
  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      readInputFile(path, "object file");
  if (!bytes)
    return bytes.takeError();
  return checkObjectDefinesFunctions((*bytes)->getMemBufferRef(),
                                     ("object file '" + path + "'").str(),
                                     {symbol.str()});
}

/// A symbol-safe form of `text`.
static std::string sanitize(StringRef text) {
  std::string name;
  for (char c : text)
    name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  return name;
}

/// The kiln_kernel_fn type: (state, x, y, z, scratch) -> void.
static LLVM::LLVMFunctionType getKernelType(MLIRContext *context) {
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Type i32Type = IntegerType::get(context, 32);
  return LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context),
      {ptrType, i32Type, i32Type, i32Type, ptrType});
}

/// The export's kernel, which calls the external one with its own
/// arguments: a function the object defines, or the one the runtime put in
/// the module's slot for `op`'s kernel.
static void buildKernel(OpBuilder &builder, Location loc, StringRef exportName,
                        ExternalDispatchOp op) {
  MLIRContext *context = builder.getContext();
  LLVM::LLVMFunctionType type = getKernelType(context);
  Type ptrType = LLVM::LLVMPointerType::get(context);
  OpBuilder::InsertionGuard guard(builder);
  LLVM::LLVMFuncOp external;
  if (op.getObject()) {
    external = LLVM::LLVMFuncOp::create(builder, loc, op.getKernel(), type);
  } else {
    LLVM::GlobalOp::create(
        builder, loc, ptrType, /*isConstant=*/false, LLVM::Linkage::External,
        ("__kiln_extern." + op.getKernel()).str(), Attribute());
  }
  auto wrapper = LLVM::LLVMFuncOp::create(builder, loc, exportName, type);
  Block *entry = wrapper.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> args(entry->getArguments());
  if (external) {
    LLVM::CallOp::create(builder, loc, external, args);
  } else {
    Value slot = LLVM::AddressOfOp::create(
        builder, loc, ptrType, ("__kiln_extern." + op.getKernel()).str());
    Value callee = LLVM::LoadOp::create(builder, loc, ptrType, slot);
    SmallVector<Value> operands = {callee};
    llvm::append_range(operands, args);
    LLVM::CallOp::create(builder, loc, type, operands);
  }
  LLVM::ReturnOp::create(builder, loc, ValueRange());
}

namespace {
struct OutlineExternalDispatchesPass
    : public kiln::impl::OutlineExternalDispatchesPassBase<
          OutlineExternalDispatchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<ExternalDispatchOp> ops;
    module.walk([&](ExternalDispatchOp op) { ops.push_back(op); });
    for (ExternalDispatchOp op : ops)
      if (failed(outline(op, symbols)))
        return signalPassFailure();
  }

  LogicalResult outline(ExternalDispatchOp op, SymbolTable &symbols) {
    MLIRContext *context = &getContext();
    Location loc = op.getLoc();
    Builder b(context);
    SmallVector<Attribute> objects;
    if (std::optional<StringRef> path = op.getObject()) {
      auto object = ObjectAttr::get(context, b.getStringAttr(*path));
      if (llvm::Error error = object.checkLinkable())
        return op.emitOpError() << llvm::toString(std::move(error));
      if (llvm::Error error =
              checkDefines(object.getAbsolutePath(), op.getKernel()))
        return op.emitOpError() << llvm::toString(std::move(error));
      objects.push_back(
          ObjectAttr::get(context, b.getStringAttr(object.getAbsolutePath())));
    }

    auto hostFunc = op->getParentOfType<FunctionOpInterface>();
    std::string base = (hostFunc ? hostFunc.getName().str() : "external") +
                       "_external_" + sanitize(op.getKernel());
    OpBuilder detached(context);
    auto executable = ExecutableOp::create(detached, loc, base);
    executable.setPrivate();
    // Before the function that uses it; renamed if the name is taken.
    if (hostFunc)
      symbols.insert(executable, Block::iterator(hostFunc.getOperation()));
    else
      symbols.insert(executable);
    // For profiles: no loops Kiln knows, the first result's element type.
    std::string root = "kiln.external_dispatch - ";
    llvm::raw_string_ostream rootText(root);
    if (op.getNumResults())
      rootText << getElementTypeOrSelf(op.getResult(0).getType());
    else
      rootText << "?";
    executable->setAttr(KilnDialect::getRootOpAttrName(),
                        b.getStringAttr(root));
    if (!objects.empty())
      executable->setAttr(KilnDialect::getObjectsAttrName(),
                          b.getArrayAttr(objects));
    else
      executable->setAttr(
          KilnDialect::getExternsAttrName(),
          b.getArrayAttr({b.getDictionaryAttr(
              {b.getNamedAttr("name", b.getStringAttr(op.getKernel())),
               b.getNamedAttr("kind", b.getStringAttr("kernel")),
               b.getNamedAttr(
                   "signature",
                   b.getStringAttr(
                       "!llvm.func<void(ptr,i32,i32,i32,ptr)>"))})}));

    // Not the kernel's own name, which the call of it takes.
    std::string exportName = sanitize(op.getKernel()) + "_dispatch";
    OpBuilder builder = OpBuilder::atBlockEnd(&executable.getBlock());
    auto exportOp = ExecutableExportOp::create(builder, loc, exportName,
                                               op.getWorkload().size());
    // The op's count region replaces the placeholder one.
    exportOp.getWorkgroupCount().getBlocks().clear();
    exportOp.getWorkgroupCount().takeBody(op.getWorkgroupCount());
    auto kernels = ModuleOp::create(builder, loc);
    builder.setInsertionPointToEnd(kernels.getBody());
    buildKernel(builder, loc, exportName, op);

    OpBuilder hostBuilder(op);
    auto dispatch = DispatchOp::create(
        hostBuilder, loc, op.getResultTypes(),
        SymbolRefAttr::get(executable.getSymNameAttr(),
                           {FlatSymbolRefAttr::get(exportOp.getSymNameAttr())}),
        op.getWorkload(), op.getArguments(), op.getResultDims());
    op.replaceAllUsesWith(dispatch.getResults());
    op.erase();
    return success();
  }
};
} // namespace
