//===- WorkloadKey.cpp - What a dispatch's root computes, as a key --------===//
//
// The root op is cloned into a function of its own whose arguments are its
// operands, without Kiln's attributes, and printed in generic form: the
// text depends on what the op computes and on nothing around it.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/Utils/WorkloadKey.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string kiln::printWorkloadKeyText(Operation *root) {
  MLIRContext *context = root->getContext();
  context->getOrLoadDialect<func::FuncDialect>();
  OpBuilder builder(context);
  Location loc = UnknownLoc::get(context);
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(scratch->getBody());
  auto func = func::FuncOp::create(
      builder, loc, "workload",
      builder.getFunctionType(root->getOperandTypes(), {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(root->getOperands(), entry->getArguments());
  Operation *clone = builder.clone(*root, mapping);
  // Where the op came from and what configured it are not what it
  // computes.
  SmallVector<StringAttr> kilnAttributes;
  for (NamedAttribute attr : clone->getDiscardableAttrs())
    if (attr.getName().getValue().starts_with("kiln."))
      kilnAttributes.push_back(attr.getName());
  for (StringAttr name : kilnAttributes)
    clone->removeDiscardableAttr(name);
  clone->walk([&](Operation *op) { op->setLoc(loc); });
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().elideLargeElementsAttrs(64);
  clone->print(os, flags);
  return text;
}

std::string kiln::computeWorkloadKey(Operation *root) {
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      llvm::arrayRefFromStringRef(printWorkloadKeyText(root)));
  return kWorkloadKeyPrefix +
         llvm::toHex(ArrayRef<uint8_t>(digest).take_front(8),
                     /*LowerCase=*/true);
}
