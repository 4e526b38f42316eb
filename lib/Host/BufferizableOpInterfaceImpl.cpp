//===- BufferizableOpInterfaceImpl.cpp - Bufferizing kiln.dispatch --------===//
//
// kiln.dispatch reads its tensor operands and produces new tensors: on
// buffers it is a kiln.launch reading the operands' buffers and writing
// buffers allocated for its results.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace kiln;

/// An identity-layout buffer with the contents of `buffer`: `buffer`
/// itself when its layout already is the identity, else a copy.
static Value getDenseBuffer(RewriterBase &rewriter, Location loc, Value buffer,
                            const BufferizationOptions &options) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getLayout().isIdentity())
    return buffer;
  auto denseType = MemRefType::get(type.getShape(), type.getElementType());
  SmallVector<Value> dynamicSizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, buffer, dim));
  Value copy = memref::AllocOp::create(
      rewriter, loc, denseType, dynamicSizes,
      rewriter.getI64IntegerAttr(options.bufferAlignment));
  memref::CopyOp::create(rewriter, loc, buffer, copy);
  return copy;
}

/// The workgroup count of `dispatch` when it runs `exportOp`: the export's
/// count region, evaluated on the host with the dispatch's workload.
static FailureOr<SmallVector<Value>>
computeWorkgroupCount(RewriterBase &rewriter, DispatchOp dispatch,
                      ExecutableExportOp exportOp) {
  Block &body = exportOp.getWorkgroupCount().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), dispatch.getWorkload());
  for (Operation &op : body.without_terminator()) {
    if (isa<WorkgroupCountFromWorkloadOp>(op))
      return dispatch.emitOpError()
             << "launches @" << exportOp.getSymName()
             << ", whose workgroup count code generation has not computed";
    rewriter.clone(op, mapping);
  }
  auto terminator = cast<ReturnOp>(body.getTerminator());
  return llvm::map_to_vector(terminator.getOperands(), [&](Value value) {
    return mapping.lookupOrDefault(value);
  });
}

/// The variants of `executable` in the order of the module's
/// kiln.variant_targets (the runtime's variant index), or an error on the
/// dispatch when they do not match it one to one.
static FailureOr<SmallVector<ExecutableVariantOp>>
getVariantsByIndex(DispatchOp dispatch, ExecutableOp executable) {
  auto module = dispatch->getParentOfType<ModuleOp>();
  auto targets = module ? module->getAttrOfType<ArrayAttr>(
                              KilnDialect::getVariantTargetsAttrName())
                        : ArrayAttr();
  if (!targets)
    return dispatch.emitOpError()
           << "launches @" << executable.getSymName()
           << ", which has several variants, but the module does not list "
              "the targets the runtime chooses among ('"
           << KilnDialect::getVariantTargetsAttrName() << "')";
  SmallVector<ExecutableVariantOp> byIndex(targets.size());
  for (auto variant : executable.getVariantOps()) {
    auto *it = llvm::find(targets, variant.getTarget());
    if (it == targets.end())
      return variant.emitOpError()
             << "targets " << variant.getTarget()
             << ", which is not one of the module's variant targets";
    size_t index = it - targets.begin();
    if (byIndex[index])
      return variant.emitOpError() << "targets the same " << variant.getTarget()
                                   << " as @" << byIndex[index].getSymName();
    byIndex[index] = variant;
  }
  for (auto [index, variant] : llvm::enumerate(byIndex))
    if (!variant)
      return executable.emitOpError()
             << "has no variant for the module's target " << index << ", "
             << targets[index]
             << " (every executable needs one per target CPU)";
  return byIndex;
}

/// Creates the kiln.launch of `exportOp` in `variant` for `dispatch`.
static LogicalResult createLaunch(RewriterBase &rewriter, DispatchOp dispatch,
                                  ExecutableOp executable,
                                  ExecutableVariantOp variant,
                                  ExecutableExportOp exportOp,
                                  ValueRange inputs, ValueRange outputs,
                                  ValueRange constants) {
  FailureOr<SmallVector<Value>> count =
      computeWorkgroupCount(rewriter, dispatch, exportOp);
  if (failed(count))
    return failure();
  SymbolRefAttr entryPoint =
      variant ? getLaunchEntryPoint(executable, variant, exportOp)
              : dispatch.getEntryPoint();
  auto launch = LaunchOp::create(rewriter, dispatch.getLoc(), entryPoint,
                                 /*runtime=*/Value(), (*count)[0], (*count)[1],
                                 (*count)[2], inputs, outputs, constants);
  if (Attribute flops = dispatch->getAttr(KilnDialect::getFlopsAttrName()))
    launch->setAttr(KilnDialect::getFlopsAttrName(), flops);
  return success();
}

/// Launches `dispatch`: one kiln.launch, or, for an executable with one
/// variant per target CPU, the launch of each variant in a switch on the
/// variant the runtime picked.
static LogicalResult launchDispatch(RewriterBase &rewriter, DispatchOp dispatch,
                                    SymbolTableCollection &symbols,
                                    ValueRange inputs, ValueRange outputs,
                                    ValueRange constants) {
  ExecutableExportOp exportOp = lookupDispatchExport(dispatch, symbols);
  if (!exportOp)
    return dispatch.emitOpError() << "has no export to launch";
  auto executable = symbols.lookupNearestSymbolFrom<ExecutableOp>(
      dispatch, dispatch.getExecutableName());
  if (!executable.isTargetForm() || !isMultiVariant(executable))
    return createLaunch(rewriter, dispatch, executable, {}, exportOp, inputs,
                        outputs, constants);

  FailureOr<SmallVector<ExecutableVariantOp>> variants =
      getVariantsByIndex(dispatch, executable);
  if (failed(variants))
    return failure();
  Location loc = dispatch.getLoc();
  Value index = VariantIndexOp::create(rewriter, loc, /*runtime=*/Value());
  SmallVector<int64_t> cases =
      llvm::to_vector(llvm::seq<int64_t>(1, variants->size()));
  auto switchOp = scf::IndexSwitchOp::create(rewriter, loc, TypeRange(), index,
                                             cases, cases.size());
  OpBuilder::InsertionGuard guard(rewriter);
  // The default is variant 0: the runtime hands out no other index.
  for (auto [position, variant] : llvm::enumerate(*variants)) {
    Region &region = position == 0 ? switchOp.getDefaultRegion()
                                   : switchOp.getCaseRegions()[position - 1];
    rewriter.setInsertionPointToStart(&region.emplaceBlock());
    auto variantExport = symbols.lookupSymbolIn<ExecutableExportOp>(
        variant, dispatch.getExportName());
    if (!variantExport)
      return variant.emitOpError()
             << "has no export @" << dispatch.getExportName().getValue()
             << ", which its executable's other variants have";
    if (failed(createLaunch(rewriter, dispatch, executable, variant,
                            variantExport, inputs, outputs, constants)))
      return failure();
    scf::YieldOp::create(rewriter, loc);
  }
  return success();
}

/// `value`'s dense buffer when it is a tensor; `value` itself otherwise
/// (a scalar, or nothing).
static FailureOr<Value> getOperandBuffer(RewriterBase &rewriter, Location loc,
                                         Value value,
                                         const BufferizationOptions &options,
                                         BufferizationState &state) {
  if (!value || !isa<TensorType>(value.getType()))
    return value;
  FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
  if (failed(buffer))
    return failure();
  return getDenseBuffer(rewriter, loc, *buffer, options);
}

/// A new buffer for each of `results`, sized by `dims`: the dynamic dims of
/// all of them, in order.
static SmallVector<Value> allocateResults(RewriterBase &rewriter, Location loc,
                                          TypeRange results, ValueRange dims,
                                          const BufferizationOptions &options) {
  SmallVector<Value> buffers;
  for (Type result : results) {
    auto type = cast<RankedTensorType>(result);
    auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
    buffers.push_back(memref::AllocOp::create(
        rewriter, loc, bufferType, dims.take_front(type.getNumDynamicDims()),
        rewriter.getI64IntegerAttr(options.bufferAlignment)));
    dims = dims.drop_front(type.getNumDynamicDims());
  }
  return buffers;
}

namespace {
/// What bufferization asks of an op that reads its tensor operands and
/// writes none of them: kiln.check, and (with results in new buffers)
/// kiln.dispatch and kiln.call_extern.
template <typename Model, typename OpTy>
struct ReadsItsTensors
    : public BufferizableOpInterface::ExternalModel<Model, OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    return isa<TensorType>(operand.get().getType());
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &state) const {
    return false;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &state) const {
    return {};
  }
};

struct DispatchOpInterface
    : public ReadsItsTensors<DispatchOpInterface, DispatchOp> {
  bool bufferizesToAllocation(Operation *op, Value value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto dispatch = cast<DispatchOp>(op);
    Location loc = dispatch.getLoc();
    SmallVector<Value> inputs, constants;
    for (Value argument : dispatch.getArguments()) {
      FailureOr<Value> buffer =
          getOperandBuffer(rewriter, loc, argument, options, state);
      if (failed(buffer))
        return failure();
      (isa<TensorType>(argument.getType()) ? inputs : constants)
          .push_back(*buffer);
    }
    SmallVector<Value> outputs =
        allocateResults(rewriter, loc, dispatch.getResultTypes(),
                        dispatch.getResultDims(), options);
    if (failed(launchDispatch(rewriter, dispatch, state.getSymbolTables(),
                              inputs, outputs, constants)))
      return failure();
    replaceOpWithBufferizedValues(rewriter, op, outputs);
    return success();
  }
};

/// kiln.check reads its tensors; on buffers it reads dense copies of them.
struct CheckOpInterface : public ReadsItsTensors<CheckOpInterface, CheckOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto check = cast<CheckOp>(op);
    FailureOr<Value> actual = getOperandBuffer(
        rewriter, check.getLoc(), check.getActual(), options, state);
    FailureOr<Value> expected = getOperandBuffer(
        rewriter, check.getLoc(), check.getExpected(), options, state);
    if (failed(actual) || failed(expected))
      return failure();
    rewriter.modifyOpInPlace(check, [&] {
      check.getActualMutable().assign(*actual);
      if (*expected)
        check.getExpectedMutable().assign(*expected);
    });
    return success();
  }
};

/// kiln.call_extern on buffers reads dense buffers of its operands and
/// writes buffers allocated for its results (its outs).
struct CallExternOpInterface
    : public ReadsItsTensors<CallExternOpInterface, CallExternOp> {
  bool bufferizesToAllocation(Operation *op, Value value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto call = cast<CallExternOp>(op);
    Location loc = call.getLoc();
    SmallVector<Value> args;
    for (Value arg : call.getArgs()) {
      FailureOr<Value> buffer =
          getOperandBuffer(rewriter, loc, arg, options, state);
      if (failed(buffer))
        return failure();
      args.push_back(*buffer);
    }
    SmallVector<Value> outs = allocateResults(
        rewriter, loc, call.getResultTypes(), call.getResultDims(), options);
    CallExternOp::create(rewriter, loc, TypeRange(), call.getCalleeAttr(), args,
                         outs, ValueRange(), /*runtime=*/Value());
    replaceOpWithBufferizedValues(rewriter, op, outs);
    return success();
  }
};
} // namespace

void kiln::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, KilnDialect *dialect) {
    DispatchOp::attachInterface<DispatchOpInterface>(*context);
    CheckOp::attachInterface<CheckOpInterface>(*context);
    CallExternOp::attachInterface<CallExternOpInterface>(*context);
  });
}
