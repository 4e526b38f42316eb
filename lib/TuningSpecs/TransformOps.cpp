//===- TransformOps.cpp - Kiln's transform-dialect extension --------------===//
//
// Matchers for contractions, convolutions and reductions by size, element
// type and configuration state, and the action that sets a lowering
// configuration and records which spec set it.
//
//===----------------------------------------------------------------------===//

#include "kiln/TuningSpecs/TransformOps.h"
#include "kiln/Dialect/Kiln/IR/KilnOps.h"
#include "kiln/Dialect/Kiln/Utils/WorkloadKey.h"
#include "kiln/Target/TargetBackend.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "llvm/Support/raw_ostream.h"

#define GET_OP_CLASSES
#include "kiln/TuningSpecs/TransformOps.cpp.inc"

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// Size constraints
//===----------------------------------------------------------------------===//

namespace {
/// `N`, `[LO, HI]` or `[LO]`, decoded.
struct SizeConstraint {
  int64_t low;
  std::optional<int64_t> high;

  bool admits(std::optional<int64_t> size) const {
    return size && *size >= low && (!high || *size <= *high);
  }
  std::string str() const {
    if (high && *high == low)
      return std::to_string(low);
    return "[" + std::to_string(low) +
           (high ? ", " + std::to_string(*high) : "") + "]";
  }
};
} // namespace

/// Decodes a constraint; fails (with a message in `why`) on a malformed one.
static FailureOr<SizeConstraint> decode(Attribute attr, std::string &why) {
  if (auto size = dyn_cast<IntegerAttr>(attr))
    return SizeConstraint{size.getInt(), size.getInt()};
  auto bounds = dyn_cast<ArrayAttr>(attr);
  if (!bounds || bounds.empty() || bounds.size() > 2 ||
      !llvm::all_of(bounds, llvm::IsaPred<IntegerAttr>)) {
    why = "must be a size N, a range [LO, HI] or a lower bound [LO]";
    return failure();
  }
  SizeConstraint constraint{cast<IntegerAttr>(bounds[0]).getInt(),
                            std::nullopt};
  if (bounds.size() == 2)
    constraint.high = cast<IntegerAttr>(bounds[1]).getInt();
  if (constraint.high && *constraint.high < constraint.low) {
    why = "is an empty range (" + std::to_string(constraint.low) + " > " +
          std::to_string(*constraint.high) + ")";
    return failure();
  }
  return constraint;
}

/// Verifies the named constraints of a matcher op.
static LogicalResult
verifyConstraints(Operation *op,
                  ArrayRef<std::pair<StringRef, Attribute>> constraints) {
  for (auto [name, attr] : constraints) {
    if (!attr)
      continue;
    std::string why;
    if (failed(decode(attr, why)))
      return op->emitOpError()
             << "'" << name << "' " << why << ", got " << attr;
  }
  return success();
}

/// The product of the static sizes of `loops`, or nothing when one is
/// dynamic.
static std::optional<int64_t> product(ArrayRef<int64_t> ranges,
                                      ArrayRef<unsigned> loops) {
  int64_t total = 1;
  for (unsigned loop : loops) {
    if (ShapedType::isDynamic(ranges[loop]))
      return std::nullopt;
    total *= ranges[loop];
  }
  return total;
}

/// Checks each (name, constraint, size); on the first miss, a silenceable
/// failure that says which.
static DiagnosedSilenceableFailure checkSizes(
    transform::TransformOpInterface matcher, Operation *payload,
    ArrayRef<std::tuple<StringRef, Attribute, std::optional<int64_t>>> checks) {
  for (auto [name, attr, size] : checks) {
    if (!attr)
      continue;
    std::string why;
    SizeConstraint constraint = *decode(attr, why);
    if (!constraint.admits(size)) {
      DiagnosedSilenceableFailure failure =
          emitSilenceableFailure(matcher->getLoc());
      failure << name << " = "
              << (size ? std::to_string(*size) : std::string("dynamic"))
              << " is not " << constraint.str();
      failure.attachNote(payload->getLoc()) << "of this op";
      return failure;
    }
  }
  return DiagnosedSilenceableFailure::success();
}

/// Checks element types and the configuration state common to all three.
static DiagnosedSilenceableFailure
checkTypesAndState(transform::TransformOpInterface matcher, Operation *payload,
                   ArrayAttr expectedTypes, ArrayRef<Type> actualTypes,
                   bool unconfigured) {
  if (expectedTypes) {
    SmallVector<Type> expected =
        llvm::to_vector(llvm::map_range(expectedTypes, [](Attribute a) {
          return cast<TypeAttr>(a).getValue();
        }));
    if (ArrayRef<Type>(expected) != actualTypes) {
      DiagnosedSilenceableFailure failure =
          emitSilenceableFailure(matcher->getLoc());
      failure << "element types differ";
      failure.attachNote(payload->getLoc()) << "of this op";
      return failure;
    }
  }
  if (unconfigured &&
      payload->hasAttr(KilnDialect::getLoweringConfigAttrName())) {
    DiagnosedSilenceableFailure failure =
        emitSilenceableFailure(matcher->getLoc());
    failure << "the op is configured already";
    return failure;
  }
  return DiagnosedSilenceableFailure::success();
}

/// The element types of the first `inputs` inputs and the first result of
/// `op`, or nothing when it has fewer.
static SmallVector<Type> getOperandElementTypes(linalg::LinalgOp op,
                                                unsigned inputs) {
  SmallVector<Type> types;
  if (op.getNumDpsInputs() < inputs || op.getNumDpsInits() < 1)
    return types;
  SmallVector<Value> operands = op.getDpsInputs();
  for (Value input : ArrayRef<Value>(operands).take_front(inputs))
    types.push_back(getElementTypeOrSelf(input.getType()));
  types.push_back(getElementTypeOrSelf(op.getDpsInits()[0].getType()));
  return types;
}

static LogicalResult verifyElementTypes(Operation *op, ArrayAttr types,
                                        unsigned count, StringRef what) {
  if (types && types.size() != count)
    return op->emitOpError()
           << "'element_types' lists " << types.size() << " types; it takes "
           << count << " (" << what << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// MatchContractionOp
//===----------------------------------------------------------------------===//

LogicalResult MatchContractionOp::verify() {
  if (failed(verifyConstraints(*this, {{"m", getMAttr()},
                                       {"n", getNAttr()},
                                       {"k", getKAttr()},
                                       {"batch", getBatchAttr()},
                                       {"batch_dims", getBatchDimsAttr()}})))
    return failure();
  return verifyElementTypes(*this, getElementTypesAttr(), 3,
                            "lhs, rhs, result");
}

DiagnosedSilenceableFailure
MatchContractionOp::matchOperation(Operation *current,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(current);
  FailureOr<linalg::ContractionDimensions> dims = failure();
  if (linalgOp && linalg::isaContractionOpInterface(linalgOp))
    dims = linalg::inferContractionDims(linalgOp);
  if (failed(dims))
    return emitSilenceableError() << "not a contraction";
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  DiagnosedSilenceableFailure sizes =
      checkSizes(*this, current,
                 {{"m", getMAttr(), product(ranges, dims->m)},
                  {"n", getNAttr(), product(ranges, dims->n)},
                  {"k", getKAttr(), product(ranges, dims->k)},
                  {"batch", getBatchAttr(), product(ranges, dims->batch)},
                  {"batch_dims", getBatchDimsAttr(),
                   static_cast<int64_t>(dims->batch.size())}});
  if (!sizes.succeeded())
    return sizes;
  return checkTypesAndState(*this, current, getElementTypesAttr(),
                            getOperandElementTypes(linalgOp, 2),
                            getUnconfigured());
}

//===----------------------------------------------------------------------===//
// MatchConvolutionOp
//===----------------------------------------------------------------------===//

LogicalResult MatchConvolutionOp::verify() {
  if (failed(verifyConstraints(*this,
                               {{"batch", getBatchAttr()},
                                {"output_image", getOutputImageAttr()},
                                {"output_channels", getOutputChannelsAttr()},
                                {"input_channels", getInputChannelsAttr()},
                                {"filter", getFilterAttr()},
                                {"depth", getDepthAttr()}})))
    return failure();
  return verifyElementTypes(*this, getElementTypesAttr(), 3,
                            "input, filter, result");
}

DiagnosedSilenceableFailure
MatchConvolutionOp::matchOperation(Operation *current,
                                   transform::TransformResults &results,
                                   transform::TransformState &state) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(current);
  FailureOr<linalg::ConvolutionDimensions> dims = failure();
  if (linalgOp && linalg::isaConvolutionOpInterface(linalgOp))
    dims = linalg::inferConvolutionDims(linalgOp);
  if (failed(dims))
    return emitSilenceableError() << "not a convolution";
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  DiagnosedSilenceableFailure sizes = checkSizes(
      *this, current,
      {{"batch", getBatchAttr(), product(ranges, dims->batch)},
       {"output_image", getOutputImageAttr(),
        product(ranges, dims->outputImage)},
       {"output_channels", getOutputChannelsAttr(),
        product(ranges, dims->outputChannel)},
       {"input_channels", getInputChannelsAttr(),
        product(ranges, dims->inputChannel)},
       {"filter", getFilterAttr(), product(ranges, dims->filterLoop)},
       {"depth", getDepthAttr(), product(ranges, dims->depth)}});
  if (!sizes.succeeded())
    return sizes;
  return checkTypesAndState(*this, current, getElementTypesAttr(),
                            getOperandElementTypes(linalgOp, 2),
                            getUnconfigured());
}

//===----------------------------------------------------------------------===//
// MatchReductionOp
//===----------------------------------------------------------------------===//

LogicalResult MatchReductionOp::verify() {
  if (failed(verifyConstraints(*this, {{"reduction", getReductionAttr()},
                                       {"parallel", getParallelAttr()},
                                       {"rank", getRankAttr()}})))
    return failure();
  return verifyElementTypes(*this, getElementTypesAttr(), 2, "input, result");
}

DiagnosedSilenceableFailure
MatchReductionOp::matchOperation(Operation *current,
                                 transform::TransformResults &results,
                                 transform::TransformState &state) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(current);
  if (!linalgOp || linalgOp.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(linalgOp) ||
      linalg::isaConvolutionOpInterface(linalgOp))
    return emitSilenceableError() << "not a reduction";
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  SmallVector<unsigned> reductionLoops, parallelLoops;
  linalgOp.getReductionDims(reductionLoops);
  linalgOp.getParallelDims(parallelLoops);
  DiagnosedSilenceableFailure sizes = checkSizes(
      *this, current,
      {{"reduction", getReductionAttr(), product(ranges, reductionLoops)},
       {"parallel", getParallelAttr(), product(ranges, parallelLoops)},
       {"rank", getRankAttr(), static_cast<int64_t>(linalgOp.getNumLoops())}});
  if (!sizes.succeeded())
    return sizes;
  return checkTypesAndState(*this, current, getElementTypesAttr(),
                            getOperandElementTypes(linalgOp, 1),
                            getUnconfigured());
}

//===----------------------------------------------------------------------===//
// MatchWorkloadOp
//===----------------------------------------------------------------------===//

LogicalResult MatchWorkloadOp::verify() {
  StringRef key = getKey();
  StringRef prefix = kWorkloadKeyPrefix;
  if (!key.starts_with(prefix) || key.size() != prefix.size() + 16 ||
      !llvm::all_of(key.drop_front(prefix.size()), [](char c) {
        return llvm::isDigit(c) || (c >= 'a' && c <= 'f');
      }))
    return emitOpError() << "key '" << key << "' is not a workload key ('"
                         << prefix << "' and 16 lowercase hex digits)";
  return success();
}

DiagnosedSilenceableFailure
MatchWorkloadOp::matchOperation(Operation *current,
                                transform::TransformResults &results,
                                transform::TransformState &state) {
  if (computeWorkloadKey(current) != getKey())
    return emitSilenceableError() << "another workload";
  return checkTypesAndState(*this, current, /*expectedTypes=*/nullptr, {},
                            getUnconfigured());
}

//===----------------------------------------------------------------------===//
// SetLoweringConfigOp
//===----------------------------------------------------------------------===//

/// "file:line:col" of a location, or its printed form.
static std::string describeLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// The spec an op of a tuning library came from: its named sequence's
/// kiln.tuning_spec_source when linked, else the file it was parsed from.
static std::string getSpecSource(Operation *op) {
  auto sequence = op->getParentOfType<transform::NamedSequenceOp>();
  if (sequence)
    if (auto source = sequence->getAttrOfType<StringAttr>(
            KilnDialect::getTuningSpecSourceAttrName()))
      return source.str();
  if (auto fileLoc = dyn_cast<FileLineColLoc>(op->getLoc()))
    return fileLoc.getFilename().str();
  return "<unknown spec>";
}

DiagnosedSilenceableFailure
SetLoweringConfigOp::apply(transform::TransformRewriter &rewriter,
                           transform::TransformResults &results,
                           transform::TransformState &state) {
  MLIRContext *context = getContext();
  LoweringConfigAttr config = getConfig();
  auto sequence = (*this)->getParentOfType<transform::NamedSequenceOp>();
  std::string source = getSpecSource(*this);
  std::string where = describeLocation(getLoc());
  StringAttr sequenceName =
      sequence ? sequence.getSymNameAttr() : StringAttr::get(context, "");
  StringRef configName = KilnDialect::getLoweringConfigAttrName();
  StringRef byName = KilnDialect::getConfiguredByAttrName();

  for (Operation *op : state.getPayloadOps(getTarget())) {
    auto emitConfigError = [&]() {
      InFlightDiagnostic diag = emitOpError()
                                << "sets a lowering config that code "
                                   "generation cannot honor on '"
                                << op->getName() << "': ";
      diag.attachNote(op->getLoc()) << "the op";
      return diag;
    };
    if (failed(kiln::verifyLoweringConfig(
            op, config, op->getParentOfType<ExecutableVariantOp>(),
            emitConfigError)))
      return DiagnosedSilenceableFailure::definiteFailure();

    NamedAttrList by;
    if (auto existing = op->getAttrOfType<DictionaryAttr>(byName))
      by = NamedAttrList(existing);
    if (op->hasAttr(configName)) {
      // The first spec wins; this one is recorded as overridden.
      SmallVector<Attribute> overridden;
      if (auto list = dyn_cast_or_null<ArrayAttr>(by.get("overridden")))
        llvm::append_range(overridden, list);
      overridden.push_back(
          StringAttr::get(context, source + " @" + sequenceName.getValue() +
                                       " (" + where + ")"));
      if (!by.get("spec") && !by.get("heuristic"))
        by.set("input", UnitAttr::get(context));
      by.set("overridden", ArrayAttr::get(context, overridden));
      op->setAttr(byName, by.getDictionary(context));
      continue;
    }
    op->setAttr(configName, config);
    by.set("spec", StringAttr::get(context, source));
    by.set("sequence", sequenceName);
    by.set("location", StringAttr::get(context, where));
    op->setAttr(byName, by.getDictionary(context));
  }
  return DiagnosedSilenceableFailure::success();
}

void SetLoweringConfigOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  transform::onlyReadsHandle(getTargetMutable(), effects);
  transform::modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

namespace {
class KilnTransformExtension
    : public transform::TransformDialectExtension<KilnTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(KilnTransformExtension)
  using Base::Base;

  void init() {
    declareDependentDialect<KilnDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "kiln/TuningSpecs/TransformOps.cpp.inc"
        >();
  }
};
} // namespace

void kiln::registerTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<KilnTransformExtension>();
}
