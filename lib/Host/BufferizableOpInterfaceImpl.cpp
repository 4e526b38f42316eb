//===- BufferizableOpInterfaceImpl.cpp - Bufferizing kiln.dispatch --------===//
//
// kiln.dispatch reads its tensor operands and produces new tensors: on
// buffers it is a kiln.launch reading the operands' buffers and writing
// buffers allocated for its results.
//
//===----------------------------------------------------------------------===//

#include "kiln/Host/Passes.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
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

/// The workgroup count of `dispatch`: the export's count region, evaluated
/// on the host with the dispatch's workload.
static FailureOr<SmallVector<Value>>
computeWorkgroupCount(RewriterBase &rewriter, DispatchOp dispatch,
                      SymbolTableCollection &symbols) {
  ExecutableExportOp exportOp = lookupDispatchExport(dispatch, symbols);
  if (!exportOp)
    return dispatch.emitOpError() << "has no export to launch";
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

namespace {
struct DispatchOpInterface
    : public BufferizableOpInterface::ExternalModel<DispatchOpInterface,
                                                    DispatchOp> {
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

  bool bufferizesToAllocation(Operation *op, Value value) const { return true; }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto dispatch = cast<DispatchOp>(op);
    Location loc = dispatch.getLoc();
    SmallVector<Value> inputs, constants;
    for (Value argument : dispatch.getArguments()) {
      if (!isa<TensorType>(argument.getType())) {
        constants.push_back(argument);
        continue;
      }
      FailureOr<Value> buffer = getBuffer(rewriter, argument, options, state);
      if (failed(buffer))
        return failure();
      inputs.push_back(getDenseBuffer(rewriter, loc, *buffer, options));
    }

    SmallVector<Value> outputs;
    for (auto [index, result] : llvm::enumerate(dispatch.getResults())) {
      auto type = cast<RankedTensorType>(result.getType());
      auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
      outputs.push_back(memref::AllocOp::create(
          rewriter, loc, bufferType, dispatch.getResultDynamicDims(index),
          rewriter.getI64IntegerAttr(options.bufferAlignment)));
    }

    FailureOr<SmallVector<Value>> count =
        computeWorkgroupCount(rewriter, dispatch, state.getSymbolTables());
    if (failed(count))
      return failure();
    auto launch =
        LaunchOp::create(rewriter, loc, dispatch.getEntryPoint(),
                         /*runtime=*/Value(), (*count)[0], (*count)[1],
                         (*count)[2], inputs, outputs, constants);
    if (Attribute flops = dispatch->getAttr(KilnDialect::getFlopsAttrName()))
      launch->setAttr(KilnDialect::getFlopsAttrName(), flops);
    replaceOpWithBufferizedValues(rewriter, op, outputs);
    return success();
  }
};
/// kiln.check reads its tensors; on buffers it reads dense copies of them.
struct CheckOpInterface
    : public BufferizableOpInterface::ExternalModel<CheckOpInterface, CheckOp> {
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

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto check = cast<CheckOp>(op);
    auto toBuffer = [&](Value value) -> FailureOr<Value> {
      if (!value || !isa<TensorType>(value.getType()))
        return value;
      FailureOr<Value> buffer = getBuffer(rewriter, value, options, state);
      if (failed(buffer))
        return failure();
      return getDenseBuffer(rewriter, check.getLoc(), *buffer, options);
    };
    FailureOr<Value> actual = toBuffer(check.getActual());
    FailureOr<Value> expected = toBuffer(check.getExpected());
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
} // namespace

void kiln::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, KilnDialect *dialect) {
    DispatchOp::attachInterface<DispatchOpInterface>(*context);
    CheckOp::attachInterface<CheckOpInterface>(*context);
  });
}
