//===- ReturnResultsInMemory.cpp - Results stored, not returned -----------===//
//
// A host function whose every call is a C interface wrapper's, storing the
// whole returned struct to the wrapper's result pointer, takes that pointer
// as a new first argument and stores each result there itself, as soon as
// it is defined: LLVM's instruction selection copies a struct of results
// at every llvm.insertvalue, and its scheduler takes a block of thousands
// of stores before the return, both in time quadratic in the results.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln {
#define GEN_PASS_DEF_RETURNRESULTSINMEMORYPASS
#include "kiln/Host/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// The store that is the only use of `call`'s result, when `call` is in a
/// C interface wrapper and stores to the wrapper's result pointer (its
/// first argument): the runtime's output area, which the callee cannot
/// otherwise reach, so it may fill it in any order.
static LLVM::StoreOp getResultStore(LLVM::CallOp call) {
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  if (!caller || !caller.getName().starts_with("_mlir_ciface_") ||
      call.getNumResults() != 1 || !call.getResult().hasOneUse())
    return nullptr;
  auto store = dyn_cast<LLVM::StoreOp>(*call.getResult().getUsers().begin());
  if (!store || store.getValue() != call.getResult() || store.getVolatile_() ||
      store.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return nullptr;
  auto address = dyn_cast<BlockArgument>(store.getAddr());
  if (!address || address.getArgNumber() != 0 ||
      address.getOwner() != &caller.getBody().front() ||
      llvm::is_contained(call.getArgOperands(), store.getAddr()))
    return nullptr;
  return store;
}

/// The calls of `func`, each with the store of its result; empty when some
/// use of the function is not such a call.
static SmallVector<std::pair<LLVM::CallOp, LLVM::StoreOp>>
getStoringCalls(LLVM::LLVMFuncOp func, ModuleOp module) {
  SmallVector<std::pair<LLVM::CallOp, LLVM::StoreOp>> calls;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, module);
  if (!uses)
    return {};
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<LLVM::CallOp>(use.getUser());
    LLVM::StoreOp store = call ? getResultStore(call) : nullptr;
    if (!store || call.getCalleeAttr() != use.getSymbolRef())
      return {};
    calls.emplace_back(call, store);
  }
  return calls;
}

/// Stores every field of the struct `ret` returns to `address`. The fields
/// are read off the chain of llvm.insertvalue that built the struct, so
/// that the struct itself is left without uses; a field the chain does not
/// give whole is extracted from the struct. With `early`, a field is stored
/// as soon as it is defined, where that dominates the return, so that the
/// stores do not pile up before the return as one block of thousands of
/// stores for LLVM's instruction scheduler (quadratic in a block's size).
static void storeFields(LLVM::ReturnOp ret, LLVM::LLVMStructType type,
                        Value address, DominanceInfo *early) {
  Value result = ret.getArg();
  Location loc = ret.getLoc();
  OpBuilder builder(ret);
  unsigned count = type.getBody().size();
  SmallVector<Value> fields(count);
  SmallVector<bool> partial(count, false);
  Value chain = result;
  while (auto insert = chain.getDefiningOp<LLVM::InsertValueOp>()) {
    int64_t field = insert.getPosition().front();
    if (!fields[field] && !partial[field]) {
      if (insert.getPosition().size() == 1)
        fields[field] = insert.getValue();
      else
        partial[field] = true;
    }
    chain = insert.getContainer();
  }
  bool startsUndefined = chain.getDefiningOp<LLVM::PoisonOp>() ||
                         chain.getDefiningOp<LLVM::UndefOp>();
  // Where each field goes is decided before anything is inserted: an
  // insertion invalidates the block's order, which dominance queries
  // would then rebuild each time.
  SmallVector<bool> storeEarly(count, false);
  if (early)
    for (unsigned field = 0; field < count; ++field)
      storeEarly[field] =
          fields[field] && early->properlyDominates(fields[field], ret);
  Type ptrType = address.getType();
  for (unsigned field = 0; field < count; ++field) {
    Value value = fields[field];
    if (!value && !partial[field] && startsUndefined)
      continue; // never set: nothing to store
    builder.setInsertionPoint(ret);
    if (!value)
      value = LLVM::ExtractValueOp::create(builder, loc, result,
                                           ArrayRef<int64_t>{field});
    else if (storeEarly[field])
      builder.setInsertionPointAfterValue(value);
    Value fieldAddress = LLVM::GEPOp::create(
        builder, loc, ptrType, type, address,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(field)});
    LLVM::StoreOp::create(builder, loc, value, fieldAddress);
  }
}

/// Erases `value`'s chain of llvm.insertvalue while it has no uses.
static void eraseDeadChain(Value value) {
  while (value && value.use_empty()) {
    Operation *definition = value.getDefiningOp();
    if (!definition ||
        !isa<LLVM::InsertValueOp, LLVM::PoisonOp, LLVM::UndefOp>(definition))
      return;
    auto insert = dyn_cast<LLVM::InsertValueOp>(definition);
    value = insert ? insert.getContainer() : Value();
    definition->erase();
  }
}

static void rewrite(LLVM::LLVMFuncOp func,
                    ArrayRef<std::pair<LLVM::CallOp, LLVM::StoreOp>> calls) {
  MLIRContext *context = func.getContext();
  auto resultType =
      cast<LLVM::LLVMStructType>(func.getFunctionType().getReturnType());
  Type ptrType = LLVM::LLVMPointerType::get(context);
  Location loc = func.getLoc();

  ArrayRef<Type> oldInputs = func.getFunctionType().getParams();
  SmallVector<Type> inputs{ptrType};
  llvm::append_range(inputs, oldInputs);
  // The output area is never null (as the runtime context, see
  // kiln-thread-runtime-context).
  Builder builder(context);
  DictionaryAttr addressAttrs = builder.getDictionaryAttr(
      {builder.getNamedAttr(LLVM::LLVMDialect::getNonNullAttrName(),
                            builder.getUnitAttr()),
       builder.getNamedAttr(LLVM::LLVMDialect::getNoUndefAttrName(),
                            builder.getUnitAttr())});
  SmallVector<Attribute> argAttrs{addressAttrs};
  if (ArrayAttr oldAttrs = func.getArgAttrsAttr())
    llvm::append_range(argAttrs, oldAttrs.getValue());
  else
    argAttrs.append(oldInputs.size(), DictionaryAttr::get(context));
  func.setFunctionType(
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), inputs,
                                  func.getFunctionType().isVarArg()));
  func.setArgAttrsAttr(ArrayAttr::get(context, argAttrs));
  func.removeResAttrsAttr();
  Value address = func.getBody().front().insertArgument(0u, ptrType, loc);

  SmallVector<LLVM::ReturnOp> returns;
  func.walk([&](LLVM::ReturnOp op) { returns.push_back(op); });
  // With several returns, a field stored early on the way to one could
  // overwrite what another path stored.
  DominanceInfo dominance(func);
  for (LLVM::ReturnOp op : returns) {
    Value result = op.getArg();
    storeFields(op, resultType, address,
                returns.size() == 1 ? &dominance : nullptr);
    OpBuilder builder(op);
    LLVM::ReturnOp::create(builder, op.getLoc(), ValueRange{});
    op.erase();
    eraseDeadChain(result);
  }

  for (auto [call, store] : calls) {
    OpBuilder builder(call);
    SmallVector<Value> operands{store.getAddr()};
    llvm::append_range(operands, call.getArgOperands());
    LLVM::CallOp::create(builder, call.getLoc(), func, operands);
    store.erase();
    call.erase();
  }
}

namespace {
struct ReturnResultsInMemoryPass
    : public kiln::impl::ReturnResultsInMemoryPassBase<
          ReturnResultsInMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>())) {
      if (func.isExternal() || func.isVarArg() ||
          !isa<LLVM::LLVMStructType>(func.getFunctionType().getReturnType()))
        continue;
      auto calls = getStoringCalls(func, module);
      if (!calls.empty())
        rewrite(func, calls);
    }
  }
};
} // namespace
