//===- Einsum.cpp - Einsum as one linalg.generic --------------------------===//
//
// An Einsum equation names each operand's dims by letters; the generic
// loops over every distinct letter (and the dims an ellipsis stands for,
// broadcast numpy-style across the operands), reads each operand by its
// letters (a letter repeated in one operand reads its diagonal), and sums
// the products over the letters the output does not keep. Without `->`
// the output keeps the ellipsis dims and the letters used once, in
// alphabetical order.
//
//===----------------------------------------------------------------------===//

#include "Converters.h"

#include <map>

using namespace mlir;
using namespace kiln;
using namespace kiln::onnx_plugin;

namespace {
/// One side of the equation: its letters, with '.' standing for the
/// dims of an ellipsis (at most one).
struct Term {
  std::string letters;
  int64_t ellipsisAt = -1; // index in `letters` where the ellipsis is
};
} // namespace

/// Parses `text` (one operand's or the output's letters).
static FailureOr<Term> parseTerm(NodeConverter &node, StringRef text) {
  Term term;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (llvm::isAlpha(c)) {
      term.letters.push_back(c);
      continue;
    }
    if (text.substr(i).starts_with("...") && term.ellipsisAt < 0) {
      term.ellipsisAt = term.letters.size();
      i += 2;
      continue;
    }
    return node.error() << "the equation's term '" << text
                        << "' must hold letters and at most one '...'",
           failure();
  }
  return term;
}

static LogicalResult convertEinsum(NodeConverter &node,
                                   SmallVectorImpl<Value> &results) {
  if (failed(node.checkAttributes({"equation"})))
    return failure();
  FailureOr<std::string> equation = node.getString("equation", "");
  FailureOr<RankedTensorType> type = node.getRankedResultType(0);
  if (failed(equation) || failed(type))
    return failure();
  std::string text;
  for (char c : *equation)
    if (!llvm::isSpace(c))
      text.push_back(c);
  auto [lhs, rhs] = StringRef(text).split("->");
  bool explicitOutput = StringRef(text).contains("->");
  SmallVector<StringRef> operandTexts;
  lhs.split(operandTexts, ',');
  if (operandTexts.size() != node.getNumInputs())
    return node.error() << "the equation '" << *equation << "' names "
                        << operandTexts.size() << " operands but the node has "
                        << node.getNumInputs(),
           failure();

  // Each operand's term, and how many dims its ellipsis stands for.
  SmallVector<Term> terms;
  SmallVector<RankedTensorType> types;
  int64_t ellipsisRank = 0;
  for (auto [i, operandText] : llvm::enumerate(operandTexts)) {
    FailureOr<Term> term = parseTerm(node, operandText);
    FailureOr<RankedTensorType> operandType = node.getRankedInputType(i);
    if (failed(term) || failed(operandType))
      return failure();
    int64_t named = term->letters.size();
    int64_t rank = operandType->getRank();
    if (rank < named || (term->ellipsisAt < 0 && rank != named))
      return node.error() << "operand " << i << " has rank " << rank
                          << " but its term '" << operandText << "' names "
                          << named << " dims",
             failure();
    if (operandType->getElementType() != type->getElementType())
      return node.error() << "its operands and result must have one element "
                             "type",
             failure();
    ellipsisRank = std::max(ellipsisRank, rank - named);
    terms.push_back(*term);
    types.push_back(*operandType);
  }

  // The output's term, explicit or implied.
  Term output;
  if (explicitOutput) {
    FailureOr<Term> term = parseTerm(node, rhs);
    if (failed(term))
      return failure();
    output = *term;
  } else {
    std::map<char, int> uses;
    for (const Term &term : terms)
      for (char c : term.letters)
        ++uses[c];
    output.ellipsisAt = 0;
    for (auto [c, count] : uses)
      if (count == 1)
        output.letters.push_back(c);
  }
  // Loop dims: the ellipsis dims first (summed when the output leaves its
  // ellipsis out), then the output's letters, then the summed letters.
  MLIRContext *context = node.builder.getContext();
  llvm::StringMap<int64_t> letterDim; // letter -> loop dim
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < ellipsisRank; ++d)
    iterators.push_back(output.ellipsisAt >= 0
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  for (char c : output.letters) {
    if (letterDim.count(StringRef(&c, 1)))
      return node.error() << "the output names '" << c << "' twice", failure();
    letterDim[StringRef(&c, 1)] = iterators.size();
    iterators.push_back(utils::IteratorType::parallel);
  }
  for (const Term &term : terms)
    for (char c : term.letters)
      if (letterDim.try_emplace(StringRef(&c, 1), iterators.size()).second)
        iterators.push_back(utils::IteratorType::reduction);
  int64_t loops = iterators.size();

  // The ellipsis dims broadcast: an operand's 1 is read at 0 when another
  // operand's size there is not 1 (or not known).
  SmallVector<bool> wide(ellipsisRank, false);
  for (auto [i, term] : llvm::enumerate(terms)) {
    int64_t own = types[i].getRank() - term.letters.size();
    for (int64_t e = 0; e < own; ++e)
      if (types[i].getDimSize(term.ellipsisAt + e) != 1)
        wide[ellipsisRank - own + e] = true;
  }
  // Each operand's map, and for each loop dim an operand dim that has its
  // size.
  SmallVector<AffineMap> maps;
  SmallVector<std::pair<unsigned, int64_t>> sizeFrom(loops, {~0u, 0});
  for (auto [i, term] : llvm::enumerate(terms)) {
    RankedTensorType operandType = types[i];
    int64_t own = operandType.getRank() - term.letters.size();
    SmallVector<AffineExpr> exprs;
    auto addDim = [&](int64_t loop, int64_t d) {
      if (loop < ellipsisRank && wide[loop] && operandType.getDimSize(d) == 1) {
        exprs.push_back(getAffineConstantExpr(0, context));
        return;
      }
      exprs.push_back(getAffineDimExpr(loop, context));
      if (sizeFrom[loop].first == ~0u)
        sizeFrom[loop] = {static_cast<unsigned>(i), d};
    };
    int64_t d = 0;
    for (int64_t l = 0; l <= static_cast<int64_t>(term.letters.size()); ++l) {
      if (l == term.ellipsisAt)
        for (int64_t e = 0; e < own; ++e, ++d)
          addDim(ellipsisRank - own + e, d);
      if (l == static_cast<int64_t>(term.letters.size()))
        break;
      addDim(letterDim[StringRef(&term.letters[l], 1)], d++);
    }
    maps.push_back(AffineMap::get(loops, 0, exprs, context));
  }
  SmallVector<AffineExpr> outExprs;
  for (int64_t l = 0; l <= static_cast<int64_t>(output.letters.size()); ++l) {
    if (l == output.ellipsisAt)
      for (int64_t e = 0; e < ellipsisRank; ++e)
        outExprs.push_back(getAffineDimExpr(e, context));
    if (l == static_cast<int64_t>(output.letters.size()))
      break;
    auto it = letterDim.find(StringRef(&output.letters[l], 1));
    if (it == letterDim.end() || it->second >= loops ||
        sizeFrom[it->second].first == ~0u)
      return node.error() << "the output names '" << output.letters[l]
                          << "', which no operand has",
             failure();
    outExprs.push_back(getAffineDimExpr(it->second, context));
  }
  if (static_cast<int64_t>(outExprs.size()) != type->getRank())
    return node.error() << "the equation gives a result of rank "
                        << outExprs.size() << ", ONNX's shape inference "
                        << type->getRank(),
           failure();
  AffineMap outMap = AffineMap::get(loops, 0, outExprs, context);
  maps.push_back(outMap);

  OpBuilder &b = node.builder;
  Location loc = node.getLoc();
  SmallVector<Value> dynamicSizes;
  for (auto [d, expr] : llvm::enumerate(outExprs)) {
    if (!type->isDynamicDim(d))
      continue;
    auto [operand, dim] = sizeFrom[cast<AffineDimExpr>(expr).getPosition()];
    dynamicSizes.push_back(getDimSize(b, loc, node.input(operand), dim));
  }
  Type element = type->getElementType();
  Value empty = tensor::EmptyOp::create(b, loc, *type, dynamicSizes);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  bool isFloat = isa<FloatType>(element);
  SmallVector<Value> operands;
  for (unsigned i = 0; i < node.getNumInputs(); ++i)
    operands.push_back(node.input(i));
  results.push_back(
      linalg::GenericOp::create(
          b, loc, TypeRange{*type}, operands, init, maps, iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value product = args[0];
            for (Value arg : args.drop_front().drop_back())
              product =
                  isFloat
                      ? arith::MulFOp::create(nb, l, product, arg).getResult()
                      : arith::MulIOp::create(nb, l, product, arg).getResult();
            Value sum = isFloat
                            ? arith::AddFOp::create(nb, l, args.back(), product)
                                  .getResult()
                            : arith::AddIOp::create(nb, l, args.back(), product)
                                  .getResult();
            linalg::YieldOp::create(nb, l, sum);
          })
          .getResult(0));
  return success();
}

void onnx_plugin::addEinsumConverters(ConverterTable &table) {
  table["Einsum"] = {convertEinsum};
}
