//===- Converters.h - Converting one ONNX node ------------------*- C++ -*-===//
//
// kiln-onnx-convert-to-linalg walks a function's nodes in order and hands
// each to the converter registered for its op type. A converter sees the
// node through a NodeConverter: its inputs already converted (signless
// element types), the ONNX types they had (for signedness), its
// attributes, and a builder placed before it; it returns the values that
// replace the node's results, or fails with an error naming the node.
// Each file of converters registers one family of op types.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PLUGINS_ONNX_CONVERTERS_H
#define KILN_PLUGINS_ONNX_CONVERTERS_H

#include "ONNX.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace kiln::onnx_plugin {

/// ONNX's unsigned element types become signless ones; the rest stay.
mlir::Type convertElementType(mlir::Type type);
/// `type` (a tensor, or anything else) with its element type converted.
mlir::Type convertType(mlir::Type type);

class NodeConverter {
public:
  NodeConverter(mlir::OpBuilder &builder, NodeOp node,
                llvm::ArrayRef<mlir::Type> onnxInputTypes)
      : builder(builder), node(node), onnxInputTypes(onnxInputTypes) {}

  mlir::OpBuilder &builder;
  // Mutable: ODS accessors are not const.
  mutable NodeOp node;

  mlir::Location getLoc() const { return node.getLoc(); }
  int64_t getOpset() const { return static_cast<int64_t>(node.getOpset()); }

  /// An error at the node, opening with describeNode; the converter then
  /// returns failure.
  mlir::InFlightDiagnostic error();

  //===--- Inputs and outputs ---------------------------------------------===//

  unsigned getNumInputs() const { return node.getInputs().size(); }
  /// True when input `i` is given (not past the end, not `onnx.none`).
  bool hasInput(unsigned i) const;
  /// Input `i`, converted.
  mlir::Value input(unsigned i) const { return node.getInputs()[i]; }
  /// The ONNX element type input `i` had (ui8 for UINT8).
  mlir::Type getInputElementType(unsigned i) const;
  bool isUnsignedInput(unsigned i) const;
  unsigned getNumResults() const { return node.getNumResults(); }
  /// The converted type of result `i`.
  mlir::Type getResultType(unsigned i) const;
  /// Result `i` as a ranked tensor type; an error when its rank is unknown.
  mlir::FailureOr<mlir::RankedTensorType> getRankedResultType(unsigned i);
  /// Input `i` as a ranked tensor; an error when its rank is unknown.
  mlir::FailureOr<mlir::RankedTensorType> getRankedInputType(unsigned i);

  //===--- Attributes -----------------------------------------------------===//

  mlir::Attribute getAttribute(llvm::StringRef name) const;
  /// An INT attribute, `fallback` when absent; an error when it has
  /// another kind.
  mlir::FailureOr<int64_t> getInt(llvm::StringRef name, int64_t fallback);
  mlir::FailureOr<float> getFloat(llvm::StringRef name, float fallback);
  mlir::FailureOr<std::string> getString(llvm::StringRef name,
                                         llvm::StringRef fallback);
  /// An INTS attribute; std::nullopt when absent.
  mlir::FailureOr<std::optional<llvm::SmallVector<int64_t>>>
  getInts(llvm::StringRef name);

  /// An INT attribute naming an axis of a rank-`rank` tensor, negative
  /// ones counted from the end; an error when out of [-rank, rank).
  mlir::FailureOr<int64_t> getAxis(llvm::StringRef name, int64_t fallback,
                                   int64_t rank);
  /// `axis` (from an attribute or input `what`) normalized to [0, rank).
  mlir::FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                         llvm::StringRef what);

  /// The values of integer input `i`, which must be a constant (an
  /// initializer or a Constant node): Kiln needs shapes, axes and pads at
  /// compile time. An error names the input otherwise.
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getConstantInts(unsigned i, llvm::StringRef what);
  /// The value of float input `i` if it is a constant scalar.
  std::optional<double> getConstantFloat(unsigned i) const;

  /// Fails with an error for every attribute not in `known`: an attribute
  /// the converter does not read must not be silently ignored.
  mlir::LogicalResult checkAttributes(llvm::ArrayRef<llvm::StringRef> known);

  //===--- Run-time checks ------------------------------------------------===//

  /// A run-time check at `b`'s point (the node's builder when null): when
  /// `condition` is false the call ends with an error that names the node
  /// and says `message` ({N} stands for values[N]).
  void require(mlir::Value condition, const llvm::Twine &message,
               mlir::ValueRange values = {}, mlir::OpBuilder *b = nullptr);

  /// Checks that the integer tensor `indices` holds indices into `what`, a
  /// dimension of `size` elements, as ONNX allows them: in [-size, size).
  /// At compile time when both are constants (an error naming the node and
  /// the index), else at run time.
  mlir::LogicalResult checkIndices(mlir::Value indices, mlir::Value size,
                                   const llvm::Twine &what);

private:
  llvm::ArrayRef<mlir::Type> onnxInputTypes;
};

/// Converts one node; pushes one value per result of the node.
using ConvertFn = mlir::LogicalResult (*)(
    NodeConverter &node, llvm::SmallVectorImpl<mlir::Value> &results);

struct Converter {
  ConvertFn convert;
  /// The oldest opset of its domain whose version of the op it handles.
  int64_t minOpset = kMinOpset;
};

/// Converters by op type: the bare type for the default domain,
/// `domain::type` for others (getConverterKey).
using ConverterTable = llvm::StringMap<Converter>;

/// The key of op type `opType` of `domain` ("" for ai.onnx) in a
/// ConverterTable.
std::string getConverterKey(llvm::StringRef domain, llvm::StringRef opType);

/// The converters of each family.
void addElementwiseConverters(ConverterTable &table);
void addUnaryConverters(ConverterTable &table);
void addSlicingConverters(ConverterTable &table);
void addPoolingConverters(ConverterTable &table);
void addContractionConverters(ConverterTable &table);
void addShapeConverters(ConverterTable &table);
void addIndexingConverters(ConverterTable &table);
void addReductionConverters(ConverterTable &table);
void addConvolutionConverters(ConverterTable &table);
void addNormalizationConverters(ConverterTable &table);
void addSoftmaxConverters(ConverterTable &table);
void addLossConverters(ConverterTable &table);
void addResizeConverters(ConverterTable &table);
void addGeneratorConverters(ConverterTable &table);
void addQuantizationConverters(ConverterTable &table);
void addEinsumConverters(ConverterTable &table);
void addScatterConverters(ConverterTable &table);
void addTopKConverters(ConverterTable &table);
void addRecurrentConverters(ConverterTable &table);
void addTrainingConverters(ConverterTable &table);
void addTfIdfConverters(ConverterTable &table);
void addGridSampleConverters(ConverterTable &table);
void addDFTConverters(ConverterTable &table);
void addSTFTConverters(ConverterTable &table);
void addDetConverters(ConverterTable &table);
void addControlFlowConverters(ConverterTable &table);

//===--- Helpers converters share
//-------------------------------------------===//

/// An empty tensor of `type`, its dynamic sizes read from `like` where the
/// dims line up from the right (numpy broadcasting).
mlir::Value createEmptyLike(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::RankedTensorType type, mlir::ValueRange like);

/// The indexing map that reads `operand` (rank <= the result's) broadcast
/// to `resultType` numpy-style: aligned to the right, static 1s read at 0.
mlir::AffineMap getBroadcastMap(mlir::RankedTensorType operand,
                                mlir::RankedTensorType resultType);

/// A linalg.generic over `resultType` reading `inputs` broadcast, whose
/// body is `body(builder, loc, elements)`.
mlir::Value buildElementwise(
    mlir::OpBuilder &builder, mlir::Location loc,
    mlir::RankedTensorType resultType, mlir::ValueRange inputs,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body);

/// The integer values of `value` if it is a constant.
std::optional<llvm::SmallVector<int64_t>> matchConstantInts(mlir::Value value);

/// `value` reshaped to `type` (same element count) by collapsing and
/// expanding dims when the shapes allow it (all static, or dynamic dims
/// that stay whole); a null value otherwise.
mlir::Value reshapeTo(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value value, mlir::RankedTensorType type);

/// The identity of a max (`lowest`) or min reduction over `type`: -inf and
/// +inf for floats, the extreme integers otherwise.
mlir::TypedAttr getExtremeAttr(mlir::OpBuilder &builder, mlir::Type type,
                               bool lowest, bool isUnsigned);

using ReduceCombine = llvm::function_ref<mlir::Value(
    mlir::OpBuilder &, mlir::Location, mlir::Value element,
    mlir::Value accumulator)>;

/// Reduces `input` over `dims` (sorted) into a tensor without them,
/// starting from `init` and folding each element in with `combine`
/// (Reductions.cpp).
mlir::Value reduce(mlir::OpBuilder &builder, mlir::Location loc,
                   mlir::Value input, llvm::ArrayRef<int64_t> dims,
                   mlir::TypedAttr init, ReduceCombine combine);

/// The map from a rank-`rank` iteration space to a tensor reduced over
/// `dims` (dropped).
mlir::AffineMap getReducedMap(mlir::OpBuilder &builder, int64_t rank,
                              llvm::ArrayRef<int64_t> dims);

/// Softmax (or LogSoftmax, with `logarithm`) of the float tensor `input`
/// along `axis` (Softmax.cpp).
mlir::Value buildSoftmax(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::Value input, int64_t axis, bool logarithm);

/// numpy's matmul of `lhs` and `rhs` (ranked, one element type) into
/// `resultType` (Contractions.cpp).
mlir::FailureOr<mlir::Value> buildMatMul(NodeConverter &node, mlir::Value lhs,
                                         mlir::Value rhs,
                                         mlir::RankedTensorType resultType);

/// ONNX's Conv of `input` by `filter` into `type`, without a bias, the
/// window and groups read from the node's Conv attributes
/// (Convolution.cpp).
mlir::FailureOr<mlir::Value> buildConv(NodeConverter &node, mlir::Value input,
                                       mlir::Value filter,
                                       mlir::RankedTensorType type);

/// A float constant of `type` (a float type).
mlir::Value floatConstant(mlir::OpBuilder &builder, mlir::Location loc,
                          mlir::Type type, double value);

/// `input` copied into `init` (of `type`), element `i` of the result read
/// from `input` at `inputMap(i)`: a broadcast, a transpose, a reversal.
mlir::Value buildCopy(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::RankedTensorType type, mlir::Value input,
                      mlir::Value init, mlir::AffineMap inputMap);

/// `rank` parallel iterators.
llvm::SmallVector<mlir::utils::IteratorType> getParallelIterators(int64_t rank);

/// An empty tensor of `type`, its dynamic sizes those of `like`'s dims.
mlir::Value createEmptyOfDims(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::RankedTensorType type, mlir::Value like);

/// The size of dim `d` of `value` as an index value.
mlir::Value getDimSize(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value value, int64_t d);

/// `value` (a scalar) converted to `type`, float or integer; `isUnsigned`
/// says how to read an integer source.
mlir::Value castScalar(mlir::OpBuilder &builder, mlir::Location loc,
                       mlir::Value value, mlir::Type type, bool isUnsigned,
                       bool toUnsigned);

/// `index` (an integer scalar) as an index, negative ones counted from
/// `size` (an index).
mlir::Value wrapIndex(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::Value index, mlir::Value size);

/// `index` wrapped as wrapIndex does, then kept in [0, size - 1]: for reads
/// whose indices NodeConverter::checkIndices checks before the op, so that
/// nothing is read outside the tensor even where the check does not reach
/// (the padding lanes of a vector).
mlir::Value wrapAndClampIndex(mlir::OpBuilder &builder, mlir::Location loc,
                              mlir::Value index, mlir::Value size);

/// A tensor.extract at `position`, marked as checked (kiln.checked_indices):
/// its indices come from wrapAndClampIndex.
mlir::Value createCheckedExtract(mlir::OpBuilder &builder, mlir::Location loc,
                                 mlir::Value tensor, mlir::ValueRange position);

/// Checks each column k of `indices` (its last dim) against `dims[k]`,
/// dimension `first + k` of the data: GatherND's and ScatterND's indices.
mlir::LogicalResult checkIndexColumns(NodeConverter &node, mlir::Value indices,
                                      llvm::ArrayRef<mlir::Value> dims,
                                      int64_t first);

/// A 1-D i64 tensor of `sizes` (index values): a shape for tensor.reshape.
mlir::Value buildShapeTensor(mlir::OpBuilder &builder, mlir::Location loc,
                             llvm::ArrayRef<mlir::Value> sizes);

} // namespace kiln::onnx_plugin

#endif // KILN_PLUGINS_ONNX_CONVERTERS_H
