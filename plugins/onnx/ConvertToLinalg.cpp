//===- ConvertToLinalg.cpp - kiln-onnx-convert-to-linalg ------------------===//
//
// Lowers every onnx.node of a module to upstream ops on tensors, in
// program order, each through the converter of its op type
// (Converters.h), then gives functions signless signatures. All nodes
// without a converter are reported before anything is rewritten.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include "kiln/Dialect/Kiln/IR/KilnDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_ONNXCONVERTTOLINALGPASS
#include "Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

std::string onnx_plugin::getConverterKey(StringRef domain, StringRef opType) {
  if (domain.empty())
    return opType.str();
  return (domain + "::" + opType).str();
}

static const ConverterTable &getConverters() {
  static const ConverterTable table = [] {
    ConverterTable table;
    addElementwiseConverters(table);
    addUnaryConverters(table);
    addSlicingConverters(table);
    addPoolingConverters(table);
    addContractionConverters(table);
    addShapeConverters(table);
    addIndexingConverters(table);
    addReductionConverters(table);
    addConvolutionConverters(table);
    addNormalizationConverters(table);
    addLossConverters(table);
    addResizeConverters(table);
    addGeneratorConverters(table);
    addQuantizationConverters(table);
    addEinsumConverters(table);
    addScatterConverters(table);
    addTopKConverters(table);
    addRecurrentConverters(table);
    addTrainingConverters(table);
    addTfIdfConverters(table);
    addGridSampleConverters(table);
    addDFTConverters(table);
    addSTFTConverters(table);
    addDetConverters(table);
    addControlFlowConverters(table);
    return table;
  }();
  return table;
}

namespace {
struct ONNXConvertToLinalgPass
    : kiln::impl::ONNXConvertToLinalgPassBase<ONNXConvertToLinalgPass> {
  void runOnOperation() override;
};
} // namespace

void ONNXConvertToLinalgPass::runOnOperation() {
  ModuleOp module = getOperation();
  const ConverterTable &converters = getConverters();

  // Every node a converter cannot take, reported at once.
  bool unsupported = false;
  module.walk([&](NodeOp node) {
    auto it =
        converters.find(getConverterKey(node.getDomain(), node.getOpType()));
    const Converter *converter = it != converters.end() ? &it->second : nullptr;
    if (converter && converter->convert &&
        static_cast<int64_t>(node.getOpset()) >= converter->minOpset)
      return;
    unsupported = true;
    InFlightDiagnostic diagnostic = node.emitError()
                                    << describeNode(node) << ": ";
    if (!converter || !converter->convert)
      diagnostic << "Kiln's ONNX importer does not convert op type '"
                 << node.getOpType() << "'";
    else
      diagnostic << "Kiln converts '" << node.getOpType() << "' from opset "
                 << converter->minOpset << " on";
  });
  if (unsupported)
    return signalPassFailure();

  // The ONNX types of every node's inputs, before converting producers
  // makes them signless.
  DenseMap<Operation *, SmallVector<Type>> inputTypes;
  module.walk([&](NodeOp node) {
    inputTypes[node] = llvm::to_vector(node.getInputs().getTypes());
  });
  for (func::FuncOp func : module.getOps<func::FuncOp>())
    for (BlockArgument argument : func.getArguments())
      argument.setType(convertType(argument.getType()));
  // The inputs of subgraphs (a loop body's) too.
  module.walk([&](NodeOp node) {
    for (Region &body : node.getBodies())
      for (BlockArgument argument : body.getArguments())
        argument.setType(convertType(argument.getType()));
  });

  IRRewriter rewriter(&getContext());
  SmallVector<NodeOp> nodes;
  module.walk([&](NodeOp node) { nodes.push_back(node); });
  for (NodeOp node : nodes) {
    rewriter.setInsertionPoint(node);
    NodeConverter converter(rewriter, node, inputTypes[node]);
    SmallVector<Value> results;
    ConvertFn convert =
        converters.find(getConverterKey(node.getDomain(), node.getOpType()))
            ->second.convert;
    if (failed(convert(converter, results)))
      return signalPassFailure();
    assert(results.size() == node.getNumResults() &&
           "a converter must replace every result");
    for (auto [old, replacement] : llvm::zip(node.getResults(), results)) {
      // Inferred static shapes where the converter's ops gave dynamic
      // ones (or the other way): the node's type is what users expect.
      Type expected = convertType(old.getType());
      if (replacement && replacement.getType() != expected &&
          isa<RankedTensorType>(expected))
        replacement = tensor::CastOp::create(rewriter, node.getLoc(), expected,
                                             replacement);
      if (replacement)
        old.replaceAllUsesWith(replacement);
    }
    rewriter.eraseOp(node);
  }
  // The casts the importer put before graph outputs.
  module.walk([&](tensor::CastOp castOp) {
    castOp.getResult().setType(cast<TensorType>(convertType(castOp.getType())));
  });
  module.walk([&](NoneOp none) {
    if (none->use_empty())
      rewriter.eraseOp(none);
  });

  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    SmallVector<Type> results;
    for (Type type : func.getResultTypes())
      results.push_back(convertType(type));
    SmallVector<Type> arguments;
    for (Type type : func.getArgumentTypes())
      arguments.push_back(convertType(type));
    func.setType(FunctionType::get(&getContext(), arguments, results));
    // The graph's input and output names go on as the function's, which
    // the module's metadata keeps (as argument attributes they would
    // reach LLVM, which does not know them).
    auto takeNames = [&](unsigned count, auto getName) {
      SmallVector<Attribute> names;
      bool any = false;
      for (unsigned i = 0; i < count; ++i) {
        StringAttr name = getName(i);
        any |= name && !name.getValue().empty();
        names.push_back(name ? name : StringAttr::get(&getContext(), ""));
      }
      return any ? ArrayAttr::get(&getContext(), names) : ArrayAttr();
    };
    StringAttr key = StringAttr::get(&getContext(), "onnx.name");
    ArrayAttr inputNames = takeNames(func.getNumArguments(), [&](unsigned i) {
      return func.getArgAttrOfType<StringAttr>(i, key);
    });
    ArrayAttr outputNames = takeNames(func.getNumResults(), [&](unsigned i) {
      return func.getResultAttrOfType<StringAttr>(i, key);
    });
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      func.removeArgAttr(i, key);
    for (unsigned i = 0; i < func.getNumResults(); ++i)
      func.removeResultAttr(i, key);
    if (inputNames)
      func->setAttr(KilnDialect::getInputNamesAttrName(), inputNames);
    if (outputNames)
      func->setAttr(KilnDialect::getOutputNamesAttrName(), outputNames);
  }
}

InputConversion onnx_plugin::getInputConversion() {
  InputConversion conversion;
  conversion.name = "onnx";
  conversion.detect = [](ModuleOp module) {
    // ONNX ops, or only the importer's names of inputs and outputs (a
    // graph of no nodes, its outputs its inputs): both are the importer's
    // output, whose names the conversion removes.
    auto named = [](ArrayAttr attributes) {
      return attributes && llvm::any_of(attributes, [](Attribute dict) {
               return cast<DictionaryAttr>(dict).contains("onnx.name");
             });
    };
    bool found = false;
    module.walk([&](Operation *op) {
      auto func = dyn_cast<func::FuncOp>(op);
      if (isa<ONNXDialect>(op->getDialect()) ||
          (func &&
           (named(func.getArgAttrsAttr()) || named(func.getResAttrsAttr())))) {
        found = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return found;
  };
  conversion.buildPipeline = [](OpPassManager &pm) {
    pm.addPass(createONNXEliminateSequencesPass());
    pm.addPass(createONNXConvertToLinalgPass());
  };
  return conversion;
}
