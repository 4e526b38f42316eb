//===- KilnOps.cpp - Kiln operations ----------------------------*- C++ -*-===//
//
// Builders, custom syntax and verifiers of executables, dispatch regions,
// dispatches and the kernel interface (host ops: KilnHostOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// `private` / `public` / `nested` before a symbol name, or nothing.
static ParseResult parseSymbolVisibility(OpAsmParser &parser,
                                         StringAttr &visibility) {
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword,
                                            {"private", "public", "nested"})))
    visibility = parser.getBuilder().getStringAttr(keyword);
  return success();
}

static void printSymbolVisibility(OpAsmPrinter &printer, Operation *,
                                  StringAttr visibility) {
  printer << (visibility ? visibility.getValue() : StringRef("public"));
}

/// `workgroups(%w0: index, ...) -> (index, index, index) { region }`.
static ParseResult parseWorkgroupCountRegion(OpAsmParser &parser,
                                             Region &region) {
  SmallVector<OpAsmParser::Argument> args;
  if (parser.parseKeyword("workgroups") ||
      parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/true))
    return failure();
  SmallVector<Type> resultTypes;
  SMLoc resultLoc = parser.getCurrentLocation();
  if (parser.parseArrow() || parser.parseLParen() ||
      parser.parseTypeList(resultTypes) || parser.parseRParen())
    return failure();
  if (resultTypes.size() != 3 ||
      !llvm::all_of(resultTypes, [](Type t) { return t.isIndex(); }))
    return parser.emitError(resultLoc,
                            "workgroup count must be (index, index, index)");
  return parser.parseRegion(region, args);
}

static void printWorkgroupCountRegion(OpAsmPrinter &printer, Operation *,
                                      Region &region) {
  printer << "workgroups(";
  llvm::interleaveComma(region.getArguments(), printer, [&](BlockArgument arg) {
    printer.printRegionArgument(arg);
  });
  printer << ") -> (index, index, index) ";
  printer.printRegion(region, /*printEntryBlockArgs=*/false);
}

/// One `type` or `type{%d0, %d1}`.
static ParseResult
parseShapedType(OpAsmParser &parser, SmallVectorImpl<Type> &types,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dims) {
  Type type;
  if (parser.parseType(type))
    return failure();
  types.push_back(type);
  if (failed(parser.parseOptionalLBrace()))
    return success();
  return failure(parser.parseOperandList(dims) || parser.parseRBrace());
}

/// A comma-separated, possibly empty, list of shaped types with their
/// dynamic dims.
static ParseResult
parseShapedTypeList(OpAsmParser &parser, SmallVectorImpl<Type> &types,
                    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dims) {
  Type first;
  OptionalParseResult firstResult = parser.parseOptionalType(first);
  if (!firstResult.has_value())
    return success();
  if (failed(*firstResult))
    return failure();
  types.push_back(first);
  if (succeeded(parser.parseOptionalLBrace()) &&
      (parser.parseOperandList(dims) || parser.parseRBrace()))
    return failure();
  while (succeeded(parser.parseOptionalComma()))
    if (parseShapedType(parser, types, dims))
      return failure();
  return success();
}

static void printShapedTypeList(OpAsmPrinter &printer, Operation *,
                                TypeRange types, OperandRange dims) {
  unsigned dimIndex = 0;
  llvm::interleaveComma(types, printer, [&](Type type) {
    printer << type;
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || shaped.hasStaticShape())
      return;
    unsigned count = shaped.getNumDynamicDims();
    printer << "{";
    printer << dims.slice(dimIndex, count);
    printer << "}";
    dimIndex += count;
  });
}

/// `(arg types) -> result` or `(arg types) -> (results)`, results with their
/// dynamic dims.
static ParseResult
parseDispatchSignature(OpAsmParser &parser, SmallVectorImpl<Type> &argTypes,
                       SmallVectorImpl<Type> &resultTypes,
                       SmallVectorImpl<OpAsmParser::UnresolvedOperand> &dims) {
  if (parser.parseLParen())
    return failure();
  if (failed(parser.parseOptionalRParen()) &&
      (parser.parseTypeList(argTypes) || parser.parseRParen()))
    return failure();
  if (parser.parseArrow())
    return failure();
  if (succeeded(parser.parseOptionalLParen()))
    return failure(parseShapedTypeList(parser, resultTypes, dims) ||
                   parser.parseRParen());
  return parseShapedType(parser, resultTypes, dims);
}

static void printDispatchSignature(OpAsmPrinter &printer, Operation *op,
                                   TypeRange argTypes, TypeRange resultTypes,
                                   OperandRange dims) {
  printer << "(" << argTypes << ") -> ";
  bool parens = resultTypes.size() != 1;
  if (parens)
    printer << "(";
  printShapedTypeList(printer, op, resultTypes, dims);
  if (parens)
    printer << ")";
}

/// The slice of `dims` that belongs to result `index` of `types`.
static ValueRange getDynamicDimsOf(TypeRange types, ValueRange dims,
                                   unsigned index) {
  unsigned start = 0;
  for (Type type : types.take_front(index))
    start += cast<ShapedType>(type).getNumDynamicDims();
  return dims.slice(start, cast<ShapedType>(types[index]).getNumDynamicDims());
}

/// The shapes of `types`, with their dynamic sizes taken from `dims`.
static void reifyShapes(OpBuilder &builder, TypeRange types, ValueRange dims,
                        ReifiedRankedShapedTypeDims &shapes) {
  auto dynamic = dims.begin();
  for (Type type : types) {
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : cast<ShapedType>(type).getShape())
      sizes.push_back(ShapedType::isDynamic(size)
                          ? OpFoldResult(*dynamic++)
                          : OpFoldResult(builder.getIndexAttr(size)));
    shapes.push_back(std::move(sizes));
  }
}

/// Checks that `dims` holds exactly the dynamic dims of `types`.
static LogicalResult verifyDynamicDims(Operation *op, TypeRange types,
                                       ValueRange dims, StringRef what) {
  unsigned expected = 0;
  for (Type type : types)
    expected += cast<ShapedType>(type).getNumDynamicDims();
  if (dims.size() != expected)
    return op->emitOpError()
           << what << " have " << expected << " dynamic dimensions but "
           << dims.size() << " were given";
  return success();
}

//===----------------------------------------------------------------------===//
// ExecutableOp
//===----------------------------------------------------------------------===//

void ExecutableOp::build(OpBuilder &builder, OperationState &state,
                         StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

bool ExecutableOp::isTargetForm() { return !getVariantOps().empty(); }

ModuleOp ExecutableOp::getSourceModule() {
  auto modules = getBlock().getOps<ModuleOp>();
  return modules.empty() ? ModuleOp() : *modules.begin();
}

/// Checks that every export in `block` has a symbol of the same name in
/// `module`.
static LogicalResult verifyExportsImplemented(Block &block, ModuleOp module) {
  for (auto exportOp : block.getOps<ExecutableExportOp>()) {
    if (!SymbolTable::lookupSymbolIn(module, exportOp.getSymNameAttr()))
      return exportOp.emitOpError()
             << "has no function @" << exportOp.getSymName()
             << " in the executable's module";
  }
  return success();
}

LogicalResult ExecutableOp::verify() {
  unsigned numModules = 0, numExports = 0, numVariants = 0;
  for (Operation &op : getBlock()) {
    if (isa<ModuleOp>(op))
      ++numModules;
    else if (isa<ExecutableExportOp>(op))
      ++numExports;
    else if (isa<ExecutableVariantOp>(op))
      ++numVariants;
    else
      return op.emitOpError()
             << "is not allowed in a kiln.executable (expected "
                "kiln.executable.export, builtin.module or "
                "kiln.executable.variant)";
  }
  if (numVariants) {
    if (numModules || numExports)
      return emitOpError() << "mixes target variants with source exports "
                              "and modules; use one form or the other";
    return success();
  }
  if (numModules != 1)
    return emitOpError() << "in source form needs exactly one "
                            "builtin.module, found "
                         << numModules;
  return verifyExportsImplemented(getBlock(), getSourceModule());
}

//===----------------------------------------------------------------------===//
// ExecutableVariantOp
//===----------------------------------------------------------------------===//

void ExecutableVariantOp::build(OpBuilder &builder, OperationState &state,
                                StringRef name, TargetAttr target) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getTargetAttrName(state.name), target);
  state.addRegion()->emplaceBlock();
}

ModuleOp ExecutableVariantOp::getInnerModule() {
  auto modules = getBlock().getOps<ModuleOp>();
  return modules.empty() ? ModuleOp() : *modules.begin();
}

LogicalResult ExecutableVariantOp::verify() {
  unsigned numModules = 0;
  for (Operation &op : getBlock()) {
    if (isa<ModuleOp>(op)) {
      ++numModules;
      continue;
    }
    if (!isa<ExecutableExportOp>(op))
      return op.emitOpError()
             << "is not allowed in a kiln.executable.variant (expected "
                "kiln.executable.export or builtin.module)";
  }
  if (numModules > 1)
    return emitOpError() << "holds " << numModules
                         << " modules; a variant has at most one";
  if (ModuleOp module = getInnerModule())
    return verifyExportsImplemented(getBlock(), module);
  return success();
}

//===----------------------------------------------------------------------===//
// ExecutableExportOp
//===----------------------------------------------------------------------===//

void ExecutableExportOp::build(OpBuilder &builder, OperationState &state,
                               StringRef name, unsigned workloadSize) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  Region *region = state.addRegion();
  Block &block = region->emplaceBlock();
  SmallVector<Location> locs(workloadSize, state.location);
  SmallVector<Type> types(workloadSize, builder.getIndexType());
  block.addArguments(types, locs);

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&block);
  Type index = builder.getIndexType();
  auto count = WorkgroupCountFromWorkloadOp::create(
      builder, state.location, index, index, index, block.getArguments());
  ReturnOp::create(builder, state.location, count->getResults());
}

LogicalResult ExecutableExportOp::verify() {
  Block &block = getWorkgroupCount().front();
  for (BlockArgument arg : block.getArguments())
    if (!arg.getType().isIndex())
      return emitOpError() << "workload arguments must be index, argument #"
                           << arg.getArgNumber() << " is " << arg.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ReturnOp
//===----------------------------------------------------------------------===//

LogicalResult ReturnOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (isa<ExecutableExportOp, ExternalDispatchOp>(parent)) {
    if (getNumOperands() != 3 ||
        !llvm::all_of(getOperandTypes(), [](Type t) { return t.isIndex(); }))
      return emitOpError() << "in a workgroup count region must return three "
                              "index values (x, y, z)";
    return success();
  }
  auto region = cast<DispatchRegionOp>(parent);
  if (getOperandTypes() != region.getResultTypes())
    return emitOpError() << "returns " << getOperandTypes()
                         << " but the dispatch region yields "
                         << region.getResultTypes();
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchRegionOp
//===----------------------------------------------------------------------===//

ValueRange DispatchRegionOp::getResultDynamicDims(unsigned index) {
  return getDynamicDimsOf(getResultTypes(), getResultDims(), index);
}

LogicalResult
DispatchRegionOp::reifyResultShapes(OpBuilder &builder,
                                    ReifiedRankedShapedTypeDims &shapes) {
  reifyShapes(builder, getResultTypes(), getResultDims(), shapes);
  return success();
}

LogicalResult DispatchRegionOp::verify() {
  if (getBody().front().empty() ||
      !isa<ReturnOp>(getBody().front().getTerminator()))
    return emitOpError() << "body must end in kiln.return";
  return verifyDynamicDims(*this, getResultTypes(), getResultDims(), "results");
}

//===----------------------------------------------------------------------===//
// DispatchOp
//===----------------------------------------------------------------------===//

ValueRange DispatchOp::getResultDynamicDims(unsigned index) {
  return getDynamicDimsOf(getResultTypes(), getResultDims(), index);
}

LogicalResult
DispatchOp::reifyResultShapes(OpBuilder &builder,
                              ReifiedRankedShapedTypeDims &shapes) {
  reifyShapes(builder, getResultTypes(), getResultDims(), shapes);
  return success();
}

/// A dispatch's operands are ranked tensors (its input bindings) and scalars
/// (its constants).
static LogicalResult verifyDispatchOperands(Operation *op, TypeRange types) {
  for (auto [index, type] : llvm::enumerate(types)) {
    if (isa<RankedTensorType>(type) || type.isIntOrIndexOrFloat())
      continue;
    return op->emitOpError()
           << "operand #" << index
           << " must be a ranked tensor or a scalar, got " << type;
  }
  return success();
}

LogicalResult DispatchOp::verify() {
  if (getEntryPoint().getNestedReferences().size() != 1)
    return emitOpError() << "entry point must be @executable::@export, got "
                         << getEntryPoint();
  if (failed(verifyDispatchOperands(*this, getArguments().getTypes())))
    return failure();
  return verifyDynamicDims(*this, getResultTypes(), getResultDims(), "results");
}

LogicalResult ExternalDispatchOp::verify() {
  StringRef kernel = getKernel();
  bool fromObject = getObject().has_value();
  // A C symbol from an object; an extension's name otherwise.
  bool valid = !kernel.empty() && llvm::all_of(kernel, [&](char c) {
    return llvm::isAlnum(c) || c == '_' ||
           (!fromObject && (c == '.' || c == '-'));
  });
  if (!valid)
    return emitOpError() << "kernel '" << kernel << "' must be "
                         << (fromObject ? "a symbol of letters, digits and '_'"
                                        : "letters, digits, '_', '.' and '-'");
  if (fromObject && getObject()->empty())
    return emitOpError() << "object must name a file";
  if (failed(verifyDispatchOperands(*this, getArguments().getTypes())))
    return failure();
  Block &body = getWorkgroupCount().front();
  if (body.getNumArguments() != getWorkload().size() ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type type) { return type.isIndex(); }))
    return emitOpError() << "workgroups region takes one index per workload "
                            "value ("
                         << getWorkload().size() << "), got "
                         << body.getNumArguments() << " arguments";
  return verifyDynamicDims(*this, getResultTypes(), getResultDims(), "results");
}

ExecutableExportOp kiln::lookupDispatchExport(DispatchOp dispatch,
                                              SymbolTableCollection &symbols) {
  auto executable = symbols.lookupNearestSymbolFrom<ExecutableOp>(
      dispatch, dispatch.getExecutableName());
  if (!executable)
    return {};
  if (!executable.isTargetForm())
    return symbols.lookupSymbolIn<ExecutableExportOp>(executable,
                                                      dispatch.getExportName());
  for (auto variant : executable.getVariantOps())
    return symbols.lookupSymbolIn<ExecutableExportOp>(variant,
                                                      dispatch.getExportName());
  return {};
}

LogicalResult DispatchOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto executable =
      symbols.lookupNearestSymbolFrom<ExecutableOp>(*this, getExecutableName());
  if (!executable)
    return emitOpError() << "refers to @" << getExecutableName().getValue()
                         << ", which is not a kiln.executable";

  // Every variant must provide the export, with the same workload.
  SmallVector<Operation *> scopes;
  if (executable.isTargetForm())
    llvm::append_range(
        scopes, llvm::map_range(executable.getVariantOps(),
                                [](auto v) -> Operation * { return v; }));
  else
    scopes.push_back(executable);
  for (Operation *scope : scopes) {
    auto exportOp =
        symbols.lookupSymbolIn<ExecutableExportOp>(scope, getExportName());
    if (!exportOp) {
      InFlightDiagnostic diag =
          emitOpError() << "refers to export @" << getExportName().getValue()
                        << ", which @" << getExecutableName().getValue();
      if (auto variant = dyn_cast<ExecutableVariantOp>(scope))
        diag << " (variant @" << variant.getSymName() << ")";
      return diag << " does not have";
    }
    if (exportOp.getWorkloadSize() != getWorkload().size())
      return emitOpError() << "passes " << getWorkload().size()
                           << " workload values but export @"
                           << getExportName().getValue() << " takes "
                           << exportOp.getWorkloadSize();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DispatchBindingOp
//===----------------------------------------------------------------------===//

LogicalResult DispatchBindingOp::verify() {
  auto type = cast<MemRefType>(getResult().getType());
  if (!type.getLayout().isIdentity())
    return emitOpError() << "binding must have an identity layout, got "
                         << type;
  if (getDynamicDims().size() != static_cast<size_t>(type.getNumDynamicDims()))
    return emitOpError() << "type " << type << " has "
                         << type.getNumDynamicDims()
                         << " dynamic dimensions but "
                         << getDynamicDims().size() << " were given";
  return success();
}

LogicalResult WorkgroupScratchOp::verify() {
  auto type = cast<MemRefType>(getResult().getType());
  if (type.getRank() != 1 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || type.getMemorySpace())
    return emitOpError() << "scratch must be a memref<Nxi8> of static size "
                            "with an identity layout, got "
                         << type;
  return success();
}

#define GET_OP_CLASSES
#include "kiln/Dialect/Kiln/IR/KilnOps.cpp.inc"
