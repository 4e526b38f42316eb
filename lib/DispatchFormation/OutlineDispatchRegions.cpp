//===- OutlineDispatchRegions.cpp - Regions to executables ----------------===//
//
// Moves the body of every kiln.dispatch.region into the kernel function of
// a new kiln.executable and replaces the region with a kiln.dispatch.
//
//===----------------------------------------------------------------------===//

#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Dialect/Kiln/Utils/RootOps.h"
#include "kiln/DispatchFormation/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace kiln {
#define GEN_PASS_DEF_OUTLINEDISPATCHREGIONSPASS
#include "kiln/DispatchFormation/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

/// Constants cheaper to rebuild in the kernel than to pass: scalars and
/// splat tensors.
static bool isConstantToClone(Operation *op) {
  if (!op->hasTrait<OpTrait::ConstantLike>() || op->getNumResults() != 1)
    return false;
  Type type = op->getResult(0).getType();
  if (type.isIntOrIndexOrFloat())
    return true;
  Attribute value;
  if (!matchPattern(op->getResult(0), m_Constant(&value)))
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(value);
  return dense && dense.isSplat();
}

namespace {
/// What a region passes to its kernel.
struct KernelInterface {
  /// Tensors, one input binding each, in order.
  SmallVector<Value> inputs;
  /// The host values of each input's dynamic dims.
  SmallVector<SmallVector<Value>> inputDims;
  /// The host values of the results' dynamic dims, in order.
  SmallVector<Value> resultDims;
  /// Host scalars, one kernel constant each, with their constant index.
  llvm::MapVector<Value, unsigned> constants;
  /// Constant ops cloned into the kernel.
  SmallVector<Operation *> clonedConstants;
  /// Scalars the body uses, with the constant that holds each.
  SmallVector<std::pair<Value, Value>> scalars;

  /// `tensor.dim` constants by (source, dim), so equal dims share one
  /// kernel constant.
  DenseMap<std::pair<Value, int64_t>, Value> dims;

  /// Adds `value` as a kernel constant, or finds the one that holds it.
  Value addConstant(Value value) {
    if (auto dim = value.getDefiningOp<tensor::DimOp>()) {
      if (std::optional<int64_t> index = dim.getConstantIndex()) {
        auto [it, inserted] =
            dims.try_emplace({dim.getSource(), *index}, value);
        value = it->second;
      }
    }
    constants.insert({value, constants.size()});
    return value;
  }

  /// The host value of dim `dim` of `tensor`: the dims a dispatch already
  /// declares for its results, or a (shared) `tensor.dim`.
  Value getHostDim(OpBuilder &builder, Location loc, Value tensor,
                   int64_t dim) {
    auto result = dyn_cast<OpResult>(tensor);
    auto reify =
        result ? dyn_cast<ReifyRankedShapedTypeOpInterface>(result.getOwner())
               : nullptr;
    if (reify && isa<DispatchOp, DispatchRegionOp>(result.getOwner())) {
      FailureOr<OpFoldResult> size =
          reify.reifyDimOfResult(builder, result.getResultNumber(), dim);
      if (succeeded(size))
        if (auto value = dyn_cast<Value>(*size))
          return addConstant(value);
    }
    auto it = dims.find({tensor, dim});
    if (it != dims.end())
      return it->second;
    return addConstant(tensor::DimOp::create(builder, loc, tensor, dim));
  }
};
} // namespace

/// Sorts the values `region` uses from above into the kernel's interface;
/// fails on values a dispatch cannot receive.
static FailureOr<KernelInterface> buildInterface(RewriterBase &rewriter,
                                                 DispatchRegionOp region) {
  KernelInterface interface;
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region.getBody(), captured);
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (def && isConstantToClone(def)) {
      interface.clonedConstants.push_back(def);
      continue;
    }
    auto tensorType = dyn_cast<RankedTensorType>(value.getType());
    if (tensorType && !tensorType.getEncoding()) {
      interface.inputs.push_back(value);
      continue;
    }
    if (value.getType().isIntOrIndexOrFloat()) {
      interface.scalars.push_back({value, interface.addConstant(value)});
      continue;
    }
    return region.emitError()
           << "uses a value of type " << value.getType()
           << " from outside the dispatch; dispatches take ranked tensors "
              "without encodings and integer, index or float scalars";
  }

  // Dynamic dims of the inputs, then of the results, travel as constants.
  rewriter.setInsertionPoint(region);
  for (Value input : interface.inputs) {
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<Value> dims;
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      if (type.isDynamicDim(dim))
        dims.push_back(
            interface.getHostDim(rewriter, region.getLoc(), input, dim));
    interface.inputDims.push_back(std::move(dims));
  }
  for (Value dim : region.getResultDims())
    interface.resultDims.push_back(interface.addConstant(dim));
  return interface;
}

/// The binding for `type`: a memref of the same shape whose dynamic dims
/// are the kernel constants that hold `hostDims`.
static Value createBinding(OpBuilder &builder, Location loc,
                           RankedTensorType type, unsigned index, bool readonly,
                           ValueRange hostDims,
                           const KernelInterface &interface,
                           ArrayRef<Value> kernelConstants) {
  SmallVector<Value> dims;
  for (Value hostDim : hostDims)
    dims.push_back(kernelConstants[interface.constants.lookup(hostDim)]);
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  return DispatchBindingOp::create(builder, loc, memrefType, index, readonly,
                                   dims);
}

/// Floating-point operations of a contraction or convolution with static
/// shapes: a multiply and an add per point of the iteration space; unknown
/// when the count does not fit in 64 bits.
static std::optional<int64_t> countFlops(Operation *root) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(root);
  if (!linalgOp || !(linalg::isaContractionOpInterface(linalgOp) ||
                     linalg::isaConvolutionOpInterface(linalgOp)))
    return std::nullopt;
  if (!isa<FloatType>(getElementTypeOrSelf(root->getResult(0).getType())))
    return std::nullopt;
  int64_t points = 1;
  for (int64_t size : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(size) || llvm::MulOverflow(points, size, points))
      return std::nullopt;
  }
  int64_t flops;
  if (llvm::MulOverflow(points, int64_t(2), flops))
    return std::nullopt;
  return flops;
}

static LogicalResult outlineRegion(RewriterBase &rewriter,
                                   SymbolTable &symbolTable,
                                   FunctionOpInterface hostFunc,
                                   DispatchRegionOp region, unsigned index) {
  MLIRContext *context = rewriter.getContext();
  Location loc = region.getLoc();
  Block &body = region.getBody().front();

  FailureOr<KernelInterface> interface = buildInterface(rewriter, region);
  if (failed(interface))
    return failure();

  // The executable, its export and the kernel function.
  std::string executableName =
      (hostFunc.getName() + "_dispatch_" + Twine(index)).str();
  OpBuilder detached(context);
  auto executable = ExecutableOp::create(detached, loc, executableName);
  executable.setPrivate();
  symbolTable.insert(executable, Block::iterator(hostFunc));

  Operation *root = findRootOp(body);
  if (root)
    executable->setAttr(KilnDialect::getRootOpAttrName(),
                        rewriter.getStringAttr(summarizeRootOp(root)));
  std::string exportName = executable.getSymName().str() + "_" +
                           (root ? describeRootOp(root) : "copy");
  OpBuilder builder = OpBuilder::atBlockEnd(&executable.getBlock());
  ExecutableExportOp::create(builder, loc, exportName,
                             region.getWorkload().size());
  auto module = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto kernel = func::FuncOp::create(builder, loc, exportName,
                                     FunctionType::get(context, {}, {}));
  Block *entry = kernel.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  // Constants, cloned constants and input bindings.
  IRMapping mapping;
  SmallVector<Value> kernelConstants;
  for (auto [value, position] : interface->constants)
    kernelConstants.push_back(
        DispatchConstantOp::create(builder, loc, value.getType(), position));
  for (auto [value, holder] : interface->scalars)
    mapping.map(value, kernelConstants[interface->constants.lookup(holder)]);
  for (Operation *op : interface->clonedConstants)
    builder.clone(*op, mapping);
  for (auto [position, input] : llvm::enumerate(interface->inputs)) {
    auto type = cast<RankedTensorType>(input.getType());
    Value binding = createBinding(
        builder, loc, type, position, /*readonly=*/true,
        interface->inputDims[position], *interface, kernelConstants);
    Value tensor = bufferization::ToTensorOp::create(
        builder, loc, type, binding, /*restrict=*/true, /*writable=*/false);
    mapping.map(input, tensor);
  }

  // The body, with captured values replaced by what the kernel reads.
  auto terminator = cast<ReturnOp>(body.getTerminator());
  SmallVector<Value> yielded(terminator.getOperands());
  entry->getOperations().splice(entry->end(), body.getOperations(),
                                body.begin(), Block::iterator(terminator));
  for (auto [from, to] : mapping.getValueMap())
    replaceAllUsesInRegionWith(from, to, kernel.getBody());

  // Output bindings.
  builder.setInsertionPointToEnd(entry);
  unsigned numInputs = interface->inputs.size();
  unsigned dimOffset = 0;
  for (auto [position, value] : llvm::enumerate(yielded)) {
    auto type = cast<RankedTensorType>(value.getType());
    ArrayRef<Value> dims = ArrayRef<Value>(interface->resultDims)
                               .slice(dimOffset, type.getNumDynamicDims());
    dimOffset += dims.size();
    Value binding =
        createBinding(builder, loc, type, numInputs + position,
                      /*readonly=*/false, dims, *interface, kernelConstants);
    bufferization::MaterializeInDestinationOp::create(
        builder, loc, TypeRange(), mapping.lookupOrDefault(value), binding,
        /*restrict=*/true, /*writable=*/true);
  }
  func::ReturnOp::create(builder, loc);

  // The host side.
  SmallVector<Value> operands(interface->inputs);
  for (auto [value, unused] : interface->constants)
    operands.push_back(value);
  rewriter.setInsertionPoint(region);
  auto entryPoint =
      SymbolRefAttr::get(executable.getSymNameAttr(),
                         {FlatSymbolRefAttr::get(kernel.getSymNameAttr())});
  auto dispatch = DispatchOp::create(rewriter, loc, region.getResultTypes(),
                                     entryPoint, region.getWorkload(), operands,
                                     region.getResultDims());
  if (std::optional<int64_t> flops = root ? countFlops(root) : std::nullopt)
    dispatch->setAttr(KilnDialect::getFlopsAttrName(),
                      rewriter.getI64IntegerAttr(*flops));
  rewriter.replaceOp(region, dispatch.getResults());
  return success();
}

namespace {
struct OutlineDispatchRegionsPass
    : public kiln::impl::OutlineDispatchRegionsPassBase<
          OutlineDispatchRegionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbolTable(module);
    IRRewriter rewriter(&getContext());
    for (auto func :
         llvm::make_early_inc_range(module.getOps<FunctionOpInterface>())) {
      SmallVector<DispatchRegionOp> regions;
      func.walk([&](DispatchRegionOp region) { regions.push_back(region); });
      for (auto [index, region] : llvm::enumerate(regions))
        if (failed(outlineRegion(rewriter, symbolTable, func, region, index)))
          return signalPassFailure();
    }
  }
};
} // namespace
