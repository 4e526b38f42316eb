//===- NumberDispatches.cpp - The module's dispatch table -----------------===//
//
// Numbers the entry points launched by host code and records what each one
// is (name, root op, FLOPs, bytes), for the runtime's profiles.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Host/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace kiln {
#define GEN_PASS_DEF_NUMBERDISPATCHESPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The bytes `launch`'s bindings hold, or 0 when a binding's size is not
/// static (or the sum does not fit in 63 bits).
static int64_t countBindingBytes(LaunchOp launch) {
  int64_t total = 0;
  for (Value buffer :
       llvm::concat<Value>(launch.getInputs(), launch.getOutputs())) {
    auto type = cast<MemRefType>(buffer.getType());
    if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
      return 0;
    int64_t bits = type.getElementTypeBitWidth();
    int64_t bytes = (bits + 7) / 8;
    for (int64_t size : type.getShape())
      if (llvm::MulOverflow(bytes, size, bytes))
        return 0;
    if (llvm::AddOverflow(total, bytes, total))
      return 0;
  }
  return total;
}

namespace {
struct NumberDispatchesPass
    : public kiln::impl::NumberDispatchesPassBase<NumberDispatchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    SymbolTableCollection symbols;
    Builder builder(context);
    // Entry point -> its row of the table, in order of first launch.
    llvm::MapVector<SymbolRefAttr, DictionaryAttr> table;
    WalkResult result = module.walk([&](LaunchOp launch) {
      SymbolRefAttr entryPoint = launch.getEntryPoint();
      auto [it, inserted] = table.try_emplace(entryPoint, DictionaryAttr());
      if (inserted) {
        if (table.size() > std::numeric_limits<uint32_t>::max()) {
          launch.emitOpError()
              << "is one dispatch too many: a module holds at most 2^32 - 1";
          return WalkResult::interrupt();
        }
        StringAttr root;
        if (ExecutableOp executable =
                lookupExecutable(launch, entryPoint, symbols))
          root = executable->getAttrOfType<StringAttr>(
              KilnDialect::getRootOpAttrName());
        int64_t flops = 0;
        if (auto attr = launch->getAttrOfType<IntegerAttr>(
                KilnDialect::getFlopsAttrName()))
          flops = attr.getInt();
        it->second = builder.getDictionaryAttr({
            builder.getNamedAttr("name", entryPoint.getRootReference()),
            builder.getNamedAttr("root",
                                 root ? root : builder.getStringAttr("? ? ?")),
            builder.getNamedAttr("flops", builder.getI64IntegerAttr(flops)),
            builder.getNamedAttr(
                "bytes", builder.getI64IntegerAttr(countBindingBytes(launch))),
        });
      }
      launch->setAttr(
          KilnDialect::getDispatchIdAttrName(),
          builder.getI64IntegerAttr(std::distance(table.begin(), it)));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    SmallVector<Attribute> rows;
    for (auto &entry : table)
      rows.push_back(entry.second);
    module->setAttr(KilnDialect::getDispatchTableAttrName(),
                    builder.getArrayAttr(rows));
  }
};
} // namespace
