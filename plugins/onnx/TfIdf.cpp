//===- TfIdf.cpp - ONNX's TfIdfVectorizer ---------------------------------===//
//
// TfIdfVectorizer counts, in each row of integer tokens, the occurrences of
// a pool of n-grams (n from min_gram_length to max_gram_length, tokens up
// to max_skip_count apart; a 1-gram counted once, not once per skip) and
// writes each count, or its weight, at the n-gram's output index.
//
// The pool is an attribute, so it becomes constant tensors: its n-grams'
// tokens (padded to the longest n) and lengths. One generic counts over
// (row, n-gram, skip, start), reading the row's tokens at start + k (skip
// + 1) for k < n; a second sums each n-gram's count, weighted by the
// mode, into its output index (several n-grams may share one).
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// The pool's n-grams, read from the attributes: tokens, length, output
/// index and weight of each.
struct Pool {
  SmallVector<SmallVector<int64_t>> grams;
  SmallVector<int64_t> indexes;
  SmallVector<double> weights;
  int64_t outputSize = 0;
};
} // namespace

/// Splits pool_int64s into n-grams by ngram_counts and pairs each with its
/// output index and weight; an error names the first inconsistency.
static FailureOr<Pool> readPool(NodeConverter &node, int64_t maxGram) {
  auto items = node.getInts("pool_int64s");
  auto counts = node.getInts("ngram_counts");
  auto indexes = node.getInts("ngram_indexes");
  if (failed(items) || failed(counts) || failed(indexes))
    return failure();
  if (node.getAttribute("pool_strings"))
    return node.error() << "its pool is of strings (pool_strings); Kiln reads "
                           "integer tokens (pool_int64s)",
           failure();
  if (!*items || !*counts || !*indexes)
    return node.error() << "needs the attributes pool_int64s, ngram_counts "
                           "and ngram_indexes",
           failure();
  ArrayRef<int64_t> pool = **items, starts = **counts;
  if (static_cast<int64_t>(starts.size()) < maxGram)
    return node.error() << "ngram_counts has " << starts.size()
                        << " entries; max_gram_length " << maxGram
                        << " needs one per n-gram length",
           failure();
  Pool result;
  for (size_t level = 0; level < starts.size(); ++level) {
    int64_t begin = starts[level];
    int64_t end = level + 1 < starts.size() ? starts[level + 1]
                                            : static_cast<int64_t>(pool.size());
    int64_t n = level + 1;
    if (begin < 0 || end < begin || end > static_cast<int64_t>(pool.size()) ||
        (end - begin) % n != 0)
      return node.error() << "ngram_counts entry " << level << " (" << begin
                          << ") does not start a whole number of " << n
                          << "-grams in pool_int64s (" << pool.size()
                          << " items)",
             failure();
    for (int64_t at = begin; at < end; at += n)
      result.grams.push_back(llvm::to_vector(pool.slice(at, n)));
  }
  if (indexes->value().size() != result.grams.size())
    return node.error() << "ngram_indexes has " << indexes->value().size()
                        << " entries for " << result.grams.size()
                        << " n-grams in the pool",
           failure();
  result.indexes = **indexes;
  for (int64_t index : result.indexes) {
    if (index < 0)
      return node.error() << "ngram_indexes holds " << index
                          << "; output indexes are not negative",
             failure();
    result.outputSize = std::max(result.outputSize, index + 1);
  }
  result.weights.assign(result.grams.size(), 1.0);
  if (auto weights =
          dyn_cast_or_null<ArrayAttr>(node.getAttribute("weights"))) {
    if (weights.size() != result.grams.size())
      return node.error() << "weights has " << weights.size() << " entries for "
                          << result.grams.size() << " n-grams in the pool",
             failure();
    for (auto [i, weight] : llvm::enumerate(weights)) {
      auto value = dyn_cast<FloatAttr>(weight);
      if (!value)
        return node.error() << "attribute 'weights' must be FLOATS", failure();
      result.weights[i] = value.getValueAsDouble();
    }
  } else if (node.getAttribute("weights")) {
    return node.error() << "attribute 'weights' must be FLOATS", failure();
  }
  return result;
}

static LogicalResult convertTfIdf(NodeConverter &node,
                                  SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"max_gram_length", "max_skip_count",
                                   "min_gram_length", "mode", "ngram_counts",
                                   "ngram_indexes", "pool_int64s",
                                   "pool_strings", "weights"})))
    return failure();
  FailureOr<int64_t> maxGram = node.getInt("max_gram_length", 0);
  FailureOr<int64_t> minGram = node.getInt("min_gram_length", 0);
  FailureOr<int64_t> maxSkip = node.getInt("max_skip_count", 0);
  FailureOr<std::string> mode = node.getString("mode", "");
  FailureOr<RankedTensorType> inputType = node.getRankedInputType(0);
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(maxGram) || failed(minGram) || failed(maxSkip) || failed(mode) ||
      failed(inputType) || failed(type))
    return failure();
  if (*minGram < 1 || *maxGram < *minGram)
    return node.error() << "n-gram lengths from " << *minGram << " to "
                        << *maxGram << " are not a range of positive lengths",
           failure();
  if (*maxSkip < 0)
    return node.error() << "max_skip_count " << *maxSkip << " is negative",
           failure();
  if (*mode != "TF" && *mode != "IDF" && *mode != "TFIDF")
    return node.error() << "mode '" << *mode
                        << "' is none of 'TF', 'IDF' and 'TFIDF'",
           failure();
  int64_t rank = inputType->getRank();
  if ((rank != 1 && rank != 2) ||
      !isa<IntegerType>(inputType->getElementType()))
    return node.error() << "takes a 1-D or 2-D tensor of integers; got "
                        << *inputType,
           failure();
  if (type->getRank() != rank || !isa<FloatType>(type->getElementType()))
    return node.error() << "its output must be a float tensor of rank " << rank
                        << "; got " << *type,
           failure();
  FailureOr<Pool> pool = readPool(node, *maxGram);
  if (failed(pool))
    return failure();
  int64_t columns = type->getDimSize(rank - 1);
  if (!ShapedType::isDynamic(columns) && columns != pool->outputSize)
    return node.error() << "its output has " << columns
                        << " columns; ngram_indexes needs " << pool->outputSize,
           failure();

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  // Rows of tokens, a 1-D input as one row.
  Value tokens = node.input(0);
  auto rowsType = RankedTensorType::get(
      rank == 2 ? inputType->getShape()
                : ArrayRef<int64_t>{1, inputType->getDimSize(0)},
      inputType->getElementType());
  tokens = reshapeTo(b, loc, tokens, rowsType);
  if (!tokens)
    return node.error() << "cannot take " << *inputType << " as rows",
           failure();
  bool isUnsigned = node.isUnsignedInput(0);

  // The pool's n-grams of counted lengths, as constants.
  int64_t gramCount = pool->grams.size();
  SmallVector<int64_t> gramTokens(gramCount * *maxGram, 0), gramLengths;
  for (auto [g, gram] : llvm::enumerate(pool->grams)) {
    int64_t length = gram.size();
    bool counted = length >= *minGram && length <= *maxGram;
    gramLengths.push_back(counted ? length : 0);
    for (int64_t k = 0; counted && k < length; ++k)
      gramTokens[g * *maxGram + k] = gram[k];
  }
  Type i64 = b.getI64Type();
  auto tokensType = RankedTensorType::get({gramCount, *maxGram}, i64);
  Value poolTokens = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tokensType, ArrayRef(gramTokens)));
  auto lengthsType = RankedTensorType::get({gramCount}, i64);
  Value poolLengths = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(lengthsType, ArrayRef(gramLengths)));

  // counts[row, gram] over (row, gram, skip, start).
  Type element = type->getElementType();
  Value length = getDimSize(b, loc, tokens, 1);
  auto countsType =
      RankedTensorType::get({rowsType.getDimSize(0), gramCount}, element);
  Value zero = floatConstant(b, loc, element, 0.0);
  Value countsInit =
      linalg::FillOp::create(b, loc, zero,
                             createEmptyOfDims(b, loc, countsType, tokens))
          .getResult(0);
  // The skip and start loops take their extents from operands of those
  // sizes: empty tensors the body never reads.
  Value skips =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{*maxSkip + 1}, i64);
  Value starts = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{rowsType.getDimSize(1)}, i64,
      ShapedType::isDynamic(rowsType.getDimSize(1)) ? ValueRange{length}
                                                    : ValueRange{});
  MLIRContext *context = b.getContext();
  AffineExpr r = getAffineDimExpr(0, context), g = getAffineDimExpr(1, context),
             s = getAffineDimExpr(2, context), i = getAffineDimExpr(3, context);
  SmallVector<AffineMap> countMaps = {AffineMap::get(4, 0, {g}, context),
                                      AffineMap::get(4, 0, {s}, context),
                                      AffineMap::get(4, 0, {i}, context),
                                      AffineMap::get(4, 0, {r, g}, context)};
  SmallVector<utils::IteratorType> countIterators = {
      utils::IteratorType::parallel, utils::IteratorType::parallel,
      utils::IteratorType::reduction, utils::IteratorType::reduction};
  int64_t gramLimit = *maxGram;
  Value counts =
      linalg::GenericOp::create(
          b, loc, TypeRange{countsType}, ValueRange{poolLengths, skips, starts},
          ValueRange{countsInit}, countMaps, countIterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value n = args[0];
            Value row = linalg::IndexOp::create(nb, l, 0);
            Value gram = linalg::IndexOp::create(nb, l, 1);
            Value skip = linalg::IndexOp::create(nb, l, 2);
            Value start = linalg::IndexOp::create(nb, l, 3);
            auto index = [&](int64_t v) -> Value {
              return arith::ConstantIndexOp::create(nb, l, v);
            };
            auto integer = [&](int64_t v) -> Value {
              return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v));
            };
            auto cmp = [&](arith::CmpIPredicate predicate, Value lhs,
                           Value rhs) -> Value {
              return arith::CmpIOp::create(nb, l, predicate, lhs, rhs);
            };
            // Counted at all: a length in range (0 marks one that is not),
            // and a 1-gram only at skip 0.
            Value match = arith::AndIOp::create(
                nb, l, cmp(arith::CmpIPredicate::sgt, n, integer(0)),
                arith::OrIOp::create(
                    nb, l, cmp(arith::CmpIPredicate::sgt, n, integer(1)),
                    cmp(arith::CmpIPredicate::eq, skip, index(0))));
            Value stride = arith::AddIOp::create(nb, l, skip, index(1));
            Value lastIndex = arith::SubIOp::create(nb, l, length, index(1));
            for (int64_t k = 0; k < gramLimit; ++k) {
              // Token k of the n-gram, when k < n: in the row, and equal.
              Value position = arith::AddIOp::create(
                  nb, l, start, arith::MulIOp::create(nb, l, stride, index(k)));
              Value inside = cmp(arith::CmpIPredicate::ult, position, length);
              Value clamped =
                  arith::MinUIOp::create(nb, l, position, lastIndex);
              Value token = tensor::ExtractOp::create(nb, l, tokens,
                                                      ValueRange{row, clamped});
              token =
                  castScalar(nb, l, token, nb.getI64Type(), isUnsigned, false);
              Value expected = tensor::ExtractOp::create(
                  nb, l, poolTokens, ValueRange{gram, index(k)});
              Value same = arith::AndIOp::create(
                  nb, l, inside,
                  cmp(arith::CmpIPredicate::eq, token, expected));
              // Past the n-gram's end any token will do.
              Value past = cmp(arith::CmpIPredicate::sle, n, integer(k));
              Value ok = arith::OrIOp::create(nb, l, past, same);
              match = arith::AndIOp::create(nb, l, match, ok);
            }
            Value one = floatConstant(nb, l, element, 1.0);
            Value zeroF = floatConstant(nb, l, element, 0.0);
            Value increment = arith::SelectOp::create(nb, l, match, one, zeroF);
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(nb, l, args[3], increment)});
          })
          .getResult(0);

  // out[row, column] = sum over n-grams indexed `column` of their count
  // (TF), weight if counted (IDF), or count * weight (TFIDF).
  auto indexType = RankedTensorType::get({gramCount}, i64);
  Value gramIndexes = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(indexType, ArrayRef(pool->indexes)));
  auto weightType = RankedTensorType::get({gramCount}, element);
  SmallVector<Attribute> weightAttrs;
  for (double weight : pool->weights)
    weightAttrs.push_back(b.getFloatAttr(element, weight));
  Value gramWeights = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(weightType, weightAttrs));
  auto outType = RankedTensorType::get(
      {rowsType.getDimSize(0), pool->outputSize}, element);
  Value outInit = linalg::FillOp::create(
                      b, loc, zero, createEmptyOfDims(b, loc, outType, tokens))
                      .getResult(0);
  AffineExpr c = getAffineDimExpr(1, context),
             gram = getAffineDimExpr(2, context);
  SmallVector<AffineMap> sumMaps = {AffineMap::get(3, 0, {r, gram}, context),
                                    AffineMap::get(3, 0, {gram}, context),
                                    AffineMap::get(3, 0, {gram}, context),
                                    AffineMap::get(3, 0, {r, c}, context)};
  std::string modeName = *mode;
  Value out =
      linalg::GenericOp::create(
          b, loc, TypeRange{outType},
          ValueRange{counts, gramIndexes, gramWeights}, ValueRange{outInit},
          sumMaps,
          {utils::IteratorType::parallel, utils::IteratorType::parallel,
           utils::IteratorType::reduction},
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value count = args[0], weight = args[2];
            Value zeroF = floatConstant(nb, l, element, 0.0);
            Value value = count;
            if (modeName == "IDF")
              value = arith::SelectOp::create(
                  nb, l,
                  arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, count,
                                        zeroF),
                  weight, zeroF);
            else if (modeName == "TFIDF")
              value = arith::MulFOp::create(nb, l, count, weight);
            Value column = arith::IndexCastOp::create(
                nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, 1));
            Value mine = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                               args[1], column);
            Value added = arith::SelectOp::create(nb, l, mine, value, zeroF);
            linalg::YieldOp::create(
                nb, l,
                ValueRange{arith::AddFOp::create(nb, l, args[3], added)});
          })
          .getResult(0);
  if (rank == 1)
    out = reshapeTo(b, loc, out,
                    RankedTensorType::get({pool->outputSize}, element));
  results.push_back(out);
  return success();
}

void onnx_plugin::addTfIdfConverters(ConverterTable &table) {
  table["TfIdfVectorizer"] = {convertTfIdf};
}
