//===- CheckInterface.cpp - Replacing an executable, checked -------------===//

#include "kiln/ExecutablePreprocessing/CheckInterface.h"
#include "kiln/Support/CheckNesting.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace kiln;

namespace {
/// What one kiln.dispatch hands to its export.
struct DispatchInterface {
  unsigned workloadSize;
  SmallVector<RankedTensorType> bindings; // inputs, then results
  unsigned numInputs;
  SmallVector<Type> constants;
};
} // namespace

static DispatchInterface getInterface(DispatchOp dispatch) {
  DispatchInterface interface;
  interface.workloadSize = dispatch.getWorkload().size();
  for (Type type : dispatch.getArguments().getTypes()) {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      interface.bindings.push_back(tensor);
    else
      interface.constants.push_back(type);
  }
  interface.numInputs = interface.bindings.size();
  for (Type type : dispatch.getResultTypes())
    interface.bindings.push_back(cast<RankedTensorType>(type));
  return interface;
}

/// Prints `shape` as MLIR does, ? for dynamic sizes.
static void printShape(llvm::raw_ostream &os, ArrayRef<int64_t> shape) {
  llvm::interleave(
      shape, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << "?";
        else
          os << size;
      },
      "x");
}

/// Checks the bindings and constants `func` uses against `interface`.
static LogicalResult checkFunction(func::FuncOp func,
                                   const DispatchInterface &interface,
                                   llvm::raw_ostream &os) {
  WalkResult result = func.walk([&](Operation *op) {
    if (auto binding = dyn_cast<DispatchBindingOp>(op)) {
      uint64_t number = binding.getBinding();
      if (number >= interface.bindings.size()) {
        os << "@" << func.getName() << " reads binding " << number
           << ", but its dispatch binds " << interface.bindings.size()
           << " buffers (0 to " << interface.bindings.size() - 1 << ")";
        return WalkResult::interrupt();
      }
      RankedTensorType expected = interface.bindings[number];
      auto actual = cast<MemRefType>(binding.getType());
      bool fits = actual.getElementType() == expected.getElementType() &&
                  actual.getRank() == expected.getRank();
      for (auto [want, have] :
           llvm::zip(expected.getShape(), actual.getShape()))
        if (fits && !ShapedType::isDynamic(have) && want != have)
          fits = false;
      if (!fits) {
        os << "@" << func.getName() << " takes binding " << number << " as "
           << actual << ", but its dispatch binds a tensor<";
        printShape(os, expected.getShape());
        os << "x" << expected.getElementType()
           << "> there (element type and rank must match; a size the "
              "dispatch leaves dynamic must stay dynamic)";
        return WalkResult::interrupt();
      }
      if (number < interface.numInputs && !binding.getReadonly()) {
        os << "@" << func.getName() << " takes binding " << number
           << ", an input of its dispatch, without 'readonly': inputs are "
              "the caller's buffers and must not be written";
        return WalkResult::interrupt();
      }
    } else if (auto constant = dyn_cast<DispatchConstantOp>(op)) {
      uint64_t index = constant.getIndex();
      if (index >= interface.constants.size()) {
        os << "@" << func.getName() << " reads constant " << index
           << ", but its dispatch passes " << interface.constants.size()
           << " constants";
        return WalkResult::interrupt();
      }
      if (constant.getType() != interface.constants[index]) {
        os << "@" << func.getName() << " reads constant " << index << " as "
           << constant.getType() << ", but its dispatch passes one of type "
           << interface.constants[index];
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult kiln::checkReplacementInterface(ModuleOp program,
                                              ExecutableOp replacement,
                                              std::string &why) {
  llvm::raw_string_ostream os(why);
  // Every dispatch of the executable, by export (each may be dispatched
  // more than once, with other shapes).
  llvm::MapVector<StringAttr, SmallVector<DispatchInterface>> dispatched;
  program.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<ExecutableOp>(op))
      return WalkResult::skip();
    if (auto dispatch = dyn_cast<DispatchOp>(op))
      if (dispatch.getExecutableName() == replacement.getSymNameAttr())
        dispatched[dispatch.getExportName()].push_back(getInterface(dispatch));
    return WalkResult::advance();
  });

  for (ExecutableVariantOp variant : replacement.getVariantOps()) {
    bool lowered = isLoweredToLLVM(variant);
    ModuleOp inner = variant.getInnerModule();
    for (auto &[name, interfaces] : dispatched) {
      auto exportOp = dyn_cast_or_null<ExecutableExportOp>(
          SymbolTable::lookupSymbolIn(variant, name));
      if (!exportOp) {
        os << "its variant @" << variant.getSymName() << " has no export @"
           << name.getValue() << ", which the program dispatches";
        return failure();
      }
      for (const DispatchInterface &interface : interfaces) {
        if (exportOp.getWorkloadSize() != interface.workloadSize) {
          os << "the export @" << name.getValue() << " of variant @"
             << variant.getSymName() << " takes " << exportOp.getWorkloadSize()
             << " workload values, but its dispatch passes "
             << interface.workloadSize;
          return failure();
        }
        if (lowered || !inner)
          continue;
        auto func = inner.lookupSymbol<func::FuncOp>(name);
        if (!func) {
          os << "its variant @" << variant.getSymName() << " has no function @"
             << name.getValue() << " implementing the export";
          return failure();
        }
        if (failed(checkFunction(func, interface, os)))
          return failure();
      }
    }
  }
  return success();
}

FailureOr<ExecutableOp> kiln::getReplacementExecutable(ModuleOp module,
                                                       StringRef name,
                                                       std::string &why) {
  llvm::raw_string_ostream os(why);
  auto &ops = module.getBody()->getOperations();
  auto executable =
      ops.size() == 1 ? dyn_cast<ExecutableOp>(ops.front()) : ExecutableOp();
  if (!executable) {
    os << "it holds " << ops.size() << " top-level op"
       << (ops.size() == 1 ? "" : "s") << " ("
       << llvm::join(llvm::map_range(ops,
                                     [](Operation &op) {
                                       return op.getName().getStringRef().str();
                                     }),
                     ", ")
       << "), not one kiln.executable";
    return failure();
  }
  if (executable.getSymName() != name) {
    os << "it renamed the executable @" << name << " to @"
       << executable.getSymName() << "; it must keep its name";
    return failure();
  }
  for (ExecutableVariantOp variant : executable.getVariantOps()) {
    ArrayAttr objects = variant.getObjectsAttr();
    if (!objects)
      continue;
    for (auto object : objects.getAsRange<ObjectAttr>())
      if (llvm::Error error = object.checkLinkable()) {
        os << "its variant @" << variant.getSymName()
           << " attaches an object file that cannot be linked: "
           << llvm::toString(std::move(error));
        return failure();
      }
  }
  return executable;
}

OwningOpRef<ModuleOp> kiln::parseReplacementExecutable(MLIRContext &context,
                                                       StringRef name,
                                                       StringRef text,
                                                       StringRef source,
                                                       std::string &errors) {
  llvm::raw_string_ostream os(errors);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      if (auto where = dyn_cast<FileLineColLoc>(diag.getLocation()))
        os << where.getFilename().getValue() << ":" << where.getLine() << ":"
           << where.getColumn() << ": ";
      os << diag.str() << "\n";
    }
    return success();
  });
  if (text.trim().empty()) {
    os << "it printed nothing";
    return nullptr;
  }
  OwningOpRef<ModuleOp> module;
  if (succeeded(checkNesting(text, source, &context)))
    module = parseSourceString<ModuleOp>(text, ParserConfig(&context), source);
  if (!module) {
    errors = "its output is not valid MLIR:\n" +
             llvm::StringRef(errors).rtrim().str();
    return nullptr;
  }
  std::string why;
  if (failed(getReplacementExecutable(*module, name, why))) {
    os << why;
    return nullptr;
  }
  return module;
}

LogicalResult kiln::replaceExecutable(ExecutableOp original,
                                      ExecutableOp replacement,
                                      std::string &why) {
  if (failed(checkReplacementInterface(original->getParentOfType<ModuleOp>(),
                                       replacement, why)))
    return failure();
  replacement->remove();
  OpBuilder(original).insert(replacement);
  original.erase();
  return success();
}
