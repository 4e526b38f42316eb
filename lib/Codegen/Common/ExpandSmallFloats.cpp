//===- ExpandSmallFloats.cpp - 8-bit and narrower floats without LLVM ----===//
//
// Arithmetic on f8/f6/f4 types moves to f32; conversions between them and
// wider floats become integer operations on bit patterns, with every
// special case (overflow, infinities, NaNs, negative zero) taken from
// APFloat, the same arithmetic MLIR's folders use. Truncations from f64 to
// anything narrower than f32 go through f32 rounded to odd.
//
//===----------------------------------------------------------------------===//

#include "kiln/Codegen/Common/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/APFloat.h"

namespace kiln {
#define GEN_PASS_DEF_EXPANDSMALLFLOATSPASS
#include "kiln/Codegen/Common/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {
/// The bit layout of a float type of at most 8 bits, as APFloat defines
/// it: [sign] exponent mantissa, with the special encodings spelled out.
struct SmallFloatFormat {
  /// How NaNs are encoded.
  enum class NaNRule {
    None,             // no NaN (f4E2M1FN, f6...)
    MaxExponent,      // IEEE: all-ones exponent, nonzero mantissa
    AllOnesMagnitude, // "FN": all-ones exponent and mantissa
    NegativeZero,     // "FNUZ": the pattern of -0 (sign bit alone)
  };

  unsigned width;
  unsigned mantissaBits;
  unsigned exponentBits;
  int bias;
  bool hasSign;
  bool hasInf; // IEEE: all-ones exponent, zero mantissa
  NaNRule nan;
  /// Bit patterns APFloat produces, converting from f32, for values too
  /// large (+/-), for +/-infinity, for +/-NaN and for -0.
  uint64_t largest, overflow[2], inf[2], nanCode[2], negativeZero;

  unsigned magnitudeBits() const { return width - (hasSign ? 1 : 0); }
  uint64_t maxExponentField() const { return (1u << exponentBits) - 1; }

  static std::optional<SmallFloatFormat> get(Type type);
};
} // namespace

/// Converts `value` to `semantics` as MLIR's folders do; returns the bits.
static uint64_t convertBits(const llvm::fltSemantics &semantics,
                            llvm::APFloat value) {
  bool losesInfo;
  (void)value.convert(semantics, llvm::APFloat::rmNearestTiesToEven,
                      &losesInfo);
  return value.bitcastToAPInt().getZExtValue();
}

std::optional<SmallFloatFormat> SmallFloatFormat::get(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType || floatType.getWidth() > 8)
    return std::nullopt;
  const llvm::fltSemantics &sem = floatType.getFloatSemantics();
  // Without zero (f8E8M0FNU, an exponent only) upstream's expansion applies.
  if (!llvm::APFloat::semanticsHasZero(sem))
    return std::nullopt;

  SmallFloatFormat format;
  format.width = floatType.getWidth();
  format.mantissaBits = llvm::APFloat::semanticsPrecision(sem) - 1;
  format.hasSign = llvm::APFloat::semanticsHasSignedRepr(sem);
  if (format.width <= format.mantissaBits + (format.hasSign ? 1 : 0))
    return std::nullopt;
  format.exponentBits =
      format.width - format.mantissaBits - (format.hasSign ? 1 : 0);
  format.bias = 1 - llvm::APFloat::semanticsMinExponent(sem);
  format.hasInf = llvm::APFloat::semanticsHasInf(sem);

  // Which rule describes the NaNs (and infinities) APFloat sees.
  auto isNaNUnder = [&](NaNRule rule, uint64_t code) {
    uint64_t magnitude = code & ((1u << format.magnitudeBits()) - 1);
    uint64_t exponent = magnitude >> format.mantissaBits;
    uint64_t mantissa = magnitude & ((1u << format.mantissaBits) - 1);
    switch (rule) {
    case NaNRule::None:
      return false;
    case NaNRule::MaxExponent:
      return exponent == format.maxExponentField() && mantissa != 0;
    case NaNRule::AllOnesMagnitude:
      return magnitude == (1u << format.magnitudeBits()) - 1;
    case NaNRule::NegativeZero:
      return format.hasSign && code == (1u << (format.width - 1));
    }
    return false;
  };
  auto isInfUnder = [&](uint64_t code) {
    uint64_t magnitude = code & ((1u << format.magnitudeBits()) - 1);
    return format.hasInf &&
           magnitude >> format.mantissaBits == format.maxExponentField() &&
           (magnitude & ((1u << format.mantissaBits) - 1)) == 0;
  };
  std::optional<NaNRule> found;
  for (NaNRule rule : {NaNRule::None, NaNRule::MaxExponent,
                       NaNRule::AllOnesMagnitude, NaNRule::NegativeZero}) {
    bool matches = true;
    for (uint64_t code = 0; code < (1u << format.width) && matches; ++code) {
      llvm::APFloat value(sem, llvm::APInt(format.width, code));
      matches = value.isNaN() == isNaNUnder(rule, code) &&
                value.isInfinity() == isInfUnder(code);
    }
    if (matches) {
      found = rule;
      break;
    }
  }
  if (!found)
    return std::nullopt;
  format.nan = *found;

  float max = std::numeric_limits<float>::max();
  format.largest =
      llvm::APFloat::getLargest(sem).bitcastToAPInt().getZExtValue();
  for (int negative = 0; negative < 2; ++negative) {
    format.overflow[negative] =
        convertBits(sem, llvm::APFloat(negative ? -max : max));
    format.inf[negative] = convertBits(
        sem, llvm::APFloat::getInf(llvm::APFloat::IEEEsingle(), negative));
    format.nanCode[negative] = convertBits(
        sem, llvm::APFloat::getQNaN(llvm::APFloat::IEEEsingle(), negative));
  }
  format.negativeZero = convertBits(
      sem, llvm::APFloat::getZero(llvm::APFloat::IEEEsingle(), true));
  return format;
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

/// `element` in the shape of `like` (a vector or a scalar).
static Type withShape(Type like, Type element) {
  if (auto vector = dyn_cast<VectorType>(like))
    return vector.clone(element);
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return tensor.clone(element);
  return element;
}

namespace {
/// Creates splat constants and integer ops in the shape of one value.
struct BitBuilder {
  PatternRewriter &rewriter;
  Location loc;
  Type shape;

  Type i32() { return withShape(shape, rewriter.getI32Type()); }
  Type f32() { return withShape(shape, rewriter.getF32Type()); }

  Value constant(Type type, TypedAttr scalar) {
    if (auto shaped = dyn_cast<ShapedType>(type))
      return arith::ConstantOp::create(rewriter, loc,
                                       DenseElementsAttr::get(shaped, scalar));
    return arith::ConstantOp::create(rewriter, loc, scalar);
  }
  Value i32(uint64_t value) {
    return constant(i32(), rewriter.getI32IntegerAttr(value));
  }
  Value f32(float value) {
    return constant(f32(), rewriter.getF32FloatAttr(value));
  }
  Value shr(Value v, uint64_t bits) {
    return arith::ShRUIOp::create(rewriter, loc, v, i32(bits));
  }
  Value shl(Value v, uint64_t bits) {
    return arith::ShLIOp::create(rewriter, loc, v, i32(bits));
  }
  Value mask(Value v, uint64_t m) {
    return arith::AndIOp::create(rewriter, loc, v, i32(m));
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(rewriter, loc, a, b);
  }
  Value eq(Value a, uint64_t b) {
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, a,
                                 i32(b));
  }
  Value select(Value condition, Value a, Value b) {
    return arith::SelectOp::create(rewriter, loc, condition, a, b);
  }
};
} // namespace

/// Converts a float value to `target`'s element type, in `target`'s shape.
static Value convertFloat(PatternRewriter &rewriter, Location loc, Value value,
                          Type target) {
  auto from = cast<FloatType>(getElementTypeOrSelf(value));
  auto to = cast<FloatType>(getElementTypeOrSelf(target));
  Type type = withShape(value.getType(), to);
  if (from == to)
    return value;
  if (from.getWidth() < to.getWidth() ||
      (from.getWidth() == to.getWidth() &&
       llvm::APFloat::semanticsPrecision(from.getFloatSemantics()) <
           llvm::APFloat::semanticsPrecision(to.getFloatSemantics())))
    return arith::ExtFOp::create(rewriter, loc, type, value);
  return arith::TruncFOp::create(rewriter, loc, type, value);
}

/// The f32 value of the small-float bit patterns `bits` (i32, zero-extended).
static Value decode(BitBuilder &b, Value bits, const SmallFloatFormat &format) {
  unsigned m = format.mantissaBits;
  Value magnitude = b.mask(bits, (1u << format.magnitudeBits()) - 1);
  Value exponent = b.shr(magnitude, m);
  Value mantissa = b.mask(magnitude, (1u << m) - 1);

  // Normal: rebias the exponent, left-align the mantissa.
  Value normalBits = arith::OrIOp::create(
      b.rewriter, b.loc, b.shl(b.add(exponent, b.i32(127 - format.bias)), 23),
      b.shl(mantissa, 23 - m));
  Value normal =
      arith::BitcastOp::create(b.rewriter, b.loc, b.f32(), normalBits);
  // Subnormal: mantissa * 2^(1 - bias - m), exactly.
  Value subnormal = arith::MulFOp::create(
      b.rewriter, b.loc,
      arith::UIToFPOp::create(b.rewriter, b.loc, b.f32(), mantissa),
      b.f32(std::ldexp(1.0f, 1 - format.bias - static_cast<int>(m))));
  Value value = b.select(b.eq(exponent, 0), subnormal, normal);

  float inf = std::numeric_limits<float>::infinity();
  float nan = std::numeric_limits<float>::quiet_NaN();
  Value isMaxExponent = b.eq(exponent, format.maxExponentField());
  if (format.hasInf)
    value = b.select(arith::AndIOp::create(b.rewriter, b.loc, isMaxExponent,
                                           b.eq(mantissa, 0)),
                     b.f32(inf), value);
  Value isNaN;
  switch (format.nan) {
  case SmallFloatFormat::NaNRule::None:
    break;
  case SmallFloatFormat::NaNRule::MaxExponent:
    isNaN = arith::AndIOp::create(
        b.rewriter, b.loc, isMaxExponent,
        arith::CmpIOp::create(b.rewriter, b.loc, arith::CmpIPredicate::ne,
                              mantissa, b.i32(0)));
    break;
  case SmallFloatFormat::NaNRule::AllOnesMagnitude:
    isNaN = b.eq(magnitude, (1u << format.magnitudeBits()) - 1);
    break;
  case SmallFloatFormat::NaNRule::NegativeZero:
    isNaN = b.eq(bits, 1u << (format.width - 1));
    break;
  }
  if (isNaN)
    value = b.select(isNaN, b.f32(nan), value);
  if (format.hasSign) {
    Value negative = b.eq(b.shr(bits, format.width - 1), 1);
    value = b.select(negative, arith::NegFOp::create(b.rewriter, b.loc, value),
                     value);
  }
  return value;
}

/// The small-float bit patterns (i32) of the f32 `value`, rounded to
/// nearest even.
static Value encode(BitBuilder &b, Value value,
                    const SmallFloatFormat &format) {
  unsigned m = format.mantissaBits;
  Value bits = arith::BitcastOp::create(b.rewriter, b.loc, b.i32(), value);
  Value sign = b.shr(bits, 31);
  Value absBits = b.mask(bits, 0x7fffffff);
  Value abs = arith::BitcastOp::create(b.rewriter, b.loc, b.f32(), absBits);

  // Normal results: round the f32 mantissa to m bits (a carry moves into
  // the exponent), then rebias.
  unsigned dropped = 23 - m;
  Value odd = b.mask(b.shr(absBits, dropped), 1);
  Value rounded = b.shr(
      b.add(b.add(absBits, b.i32((1u << (dropped - 1)) - 1)), odd), dropped);
  Value normal = arith::SubIOp::create(b.rewriter, b.loc, rounded,
                                       b.i32((127 - format.bias) << m));
  // Subnormal results: scale to units of the smallest subnormal and round;
  // rounding up to 2^m gives the smallest normal's pattern.
  Value scaled = arith::MulFOp::create(
      b.rewriter, b.loc, abs,
      b.f32(std::ldexp(1.0f, format.bias - 1 + static_cast<int>(m))));
  Value subnormal = arith::FPToUIOp::create(
      b.rewriter, b.loc, b.i32(),
      math::RoundEvenOp::create(b.rewriter, b.loc, scaled));
  Value isSubnormal =
      arith::CmpFOp::create(b.rewriter, b.loc, arith::CmpFPredicate::OLT, abs,
                            b.f32(std::ldexp(1.0f, 1 - format.bias)));
  Value magnitude = b.select(isSubnormal, subnormal, normal);

  uint64_t largest = format.largest & ((1u << format.magnitudeBits()) - 1);
  Value overflows = arith::CmpIOp::create(
      b.rewriter, b.loc, arith::CmpIPredicate::ugt, magnitude, b.i32(largest));
  Value isNegative = b.eq(sign, 1);
  auto bySign = [&](const uint64_t codes[2]) {
    return b.select(isNegative, b.i32(codes[1]), b.i32(codes[0]));
  };
  Value code = magnitude;
  if (format.hasSign) {
    Value signed_ = arith::OrIOp::create(b.rewriter, b.loc, magnitude,
                                         b.shl(sign, format.width - 1));
    // Formats without -0 give +0.
    Value negativeZero = arith::AndIOp::create(b.rewriter, b.loc, isNegative,
                                               b.eq(magnitude, 0));
    code = b.select(negativeZero, b.i32(format.negativeZero), signed_);
  }
  code = b.select(overflows, bySign(format.overflow), code);
  Value isInf = b.eq(absBits, 0x7f800000);
  code = b.select(isInf, bySign(format.inf), code);
  Value isNaN = arith::CmpFOp::create(b.rewriter, b.loc,
                                      arith::CmpFPredicate::UNO, value, value);
  return b.select(isNaN, bySign(format.nanCode), code);
}

namespace {
struct ExpandExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type sourceType = getElementTypeOrSelf(op.getIn());
    if (isa<Float8E8M0FNUType>(sourceType))
      return expandE8M0(op, rewriter);
    std::optional<SmallFloatFormat> format = SmallFloatFormat::get(sourceType);
    if (!format)
      return failure();
    BitBuilder b{rewriter, op.getLoc(), op.getType()};
    Type intType =
        withShape(op.getType(), rewriter.getIntegerType(format->width));
    Value bits =
        arith::BitcastOp::create(rewriter, op.getLoc(), intType, op.getIn());
    Value wide = arith::ExtUIOp::create(rewriter, op.getLoc(), b.i32(), bits);
    Value value = decode(b, wide, *format);
    rewriter.replaceOp(
        op, convertFloat(rewriter, op.getLoc(), value, op.getType()));
    return success();
  }

  /// f8E8M0FNU is a biased exponent alone: 2^(code - 127), where 0 is
  /// 2^-127 (an f32 subnormal) and 255 is NaN.
  LogicalResult expandE8M0(arith::ExtFOp op, PatternRewriter &rewriter) const {
    BitBuilder b{rewriter, op.getLoc(), op.getType()};
    Type i8 = withShape(op.getType(), rewriter.getI8Type());
    Value bits =
        arith::BitcastOp::create(rewriter, op.getLoc(), i8, op.getIn());
    Value code = arith::ExtUIOp::create(rewriter, op.getLoc(), b.i32(), bits);
    Value f32Bits = b.select(b.eq(code, 0), b.i32(0x00400000), b.shl(code, 23));
    f32Bits = b.select(b.eq(code, 0xff), b.i32(0x7fc00000), f32Bits);
    Value value =
        arith::BitcastOp::create(rewriter, op.getLoc(), b.f32(), f32Bits);
    rewriter.replaceOp(
        op, convertFloat(rewriter, op.getLoc(), value, op.getType()));
    return success();
  }
};

struct ExpandTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type resultType = getElementTypeOrSelf(op.getType());
    std::optional<SmallFloatFormat> format = SmallFloatFormat::get(resultType);
    if (!format)
      return failure();
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "only rounds to nearest even");
    BitBuilder b{rewriter, op.getLoc(), op.getType()};
    Value value = convertFloat(rewriter, op.getLoc(), op.getIn(), b.f32());
    Value code = encode(b, value, *format);
    Type intType =
        withShape(op.getType(), rewriter.getIntegerType(format->width));
    Value narrow =
        arith::TruncIOp::create(rewriter, op.getLoc(), intType, code);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), narrow);
    return success();
  }
};

/// A truncation from f64 to a float narrower than f32 as one to f32 rounded
/// to odd (truncated, its last bit set when inexact) and one from there:
/// correctly rounded, as f32 has more than two bits beyond the narrow
/// type's precision, and free of the libcalls (`__truncdfhf2`) LLVM emits
/// for f64 to f16 and bf16 without hardware support.
struct TruncFThroughOddF32 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type source = getElementTypeOrSelf(op.getIn());
    Type result = getElementTypeOrSelf(op.getType());
    if (!source.isF64() || result.getIntOrFloatBitWidth() >= 32)
      return failure();
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "only rounds to nearest even");
    Location loc = op.getLoc();
    BitBuilder b{rewriter, loc, op.getType()};
    Value x = op.getIn();
    Value nearest = arith::TruncFOp::create(rewriter, loc, b.f32(), x);
    Value back = arith::ExtFOp::create(rewriter, loc, x.getType(), nearest);
    // Unordered compares are false: NaNs keep their nearest f32.
    Value inexact = arith::CmpFOp::create(rewriter, loc,
                                          arith::CmpFPredicate::ONE, back, x);
    // Rounded away from zero: above a positive x, below a negative one.
    // (Compares only: math.absf on f64 would meet the f32 extension of
    // math ops below.)
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(x.getType()));
    Value negative = arith::CmpFOp::create(rewriter, loc,
                                           arith::CmpFPredicate::OLT, x, zero);
    Value away =
        b.select(negative,
                 arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                                       back, x),
                 arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                                       back, x));
    Value bits = arith::BitcastOp::create(rewriter, loc, b.i32(), nearest);
    // Toward zero by one step of the magnitude, then the last bit set.
    Value stepped = arith::SubIOp::create(rewriter, loc, bits, b.i32(1));
    Value truncated = b.select(away, stepped, bits);
    Value odd = b.select(
        inexact, arith::OrIOp::create(rewriter, loc, truncated, b.i32(1)),
        bits);
    Value value = arith::BitcastOp::create(rewriter, loc, b.f32(), odd);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), value,
                                                 op.getRoundingmodeAttr(),
                                                 op.getFastmathAttr());
    return success();
  }
};

/// Small-float constants as integer constants of their bit patterns.
struct ExpandConstant : OpRewritePattern<arith::ConstantOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op,
                                PatternRewriter &rewriter) const override {
    auto element = dyn_cast<FloatType>(getElementTypeOrSelf(op.getType()));
    if (!element || element.getWidth() > 8)
      return failure();
    Type intElement = rewriter.getIntegerType(element.getWidth());
    TypedAttr bits;
    if (auto scalar = dyn_cast<FloatAttr>(op.getValue()))
      bits = rewriter.getIntegerAttr(intElement,
                                     scalar.getValue().bitcastToAPInt());
    else if (auto dense = dyn_cast<DenseElementsAttr>(op.getValue()))
      bits = dense.bitcast(intElement);
    else
      return failure();
    Value integer = arith::ConstantOp::create(rewriter, op.getLoc(), bits);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), integer);
    return success();
  }
};

struct ExpandSmallFloatsPass
    : public kiln::impl::ExpandSmallFloatsPassBase<ExpandSmallFloatsPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *context = &getContext();
    // Without a conversion instruction (AVX512-BF16, AVX-NE-CONVERT) LLVM
    // converts between f32 and bf16, and does bf16 arithmetic in f32, with
    // calls to `__truncsfbf2`, which no module links: bf16 arithmetic is
    // emulated in f32 here, and the conversions become integer rounding to
    // nearest even. Outside a variant the CPU is unknown, so the same.
    auto variant = root->getParentOfType<kiln::ExecutableVariantOp>();
    kiln::TargetAttr target =
        variant ? variant.getTarget() : kiln::TargetAttr();
    bool nativeBF16 = target && (target.hasCPUFeature("avx512bf16") ||
                                 target.hasCPUFeature("avxneconvert"));
    SetVector<Type> smallTypes;
    root->walk([&](Operation *op) {
      auto note = [&](Type type) {
        auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
        if (element &&
            (element.getWidth() <= 8 || (!nativeBF16 && element.isBF16())))
          smallTypes.insert(element);
      };
      llvm::for_each(op->getOperandTypes(), note);
      llvm::for_each(op->getResultTypes(), note);
    });

    // Truncations from f64 through f32 rounded to odd, before the
    // emulation below adds conversions of its own.
    {
      RewritePatternSet patterns(context);
      patterns.add<TruncFThroughOddF32>(context);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }

    // Arithmetic and math in f32, with conversions around.
    Type f32 = Float32Type::get(context);
    if (!smallTypes.empty()) {
      TypeConverter converter;
      arith::populateEmulateUnsupportedFloatsConversions(
          converter, smallTypes.getArrayRef(), f32);
      RewritePatternSet patterns(context);
      arith::populateEmulateUnsupportedFloatsPatterns(patterns, converter);
      ConversionTarget target(*context);
      arith::populateEmulateUnsupportedFloatsLegality(target, converter);
      if (failed(applyPartialConversion(root, target, std::move(patterns))))
        return signalPassFailure();
    }
    if (!smallTypes.empty()) {
      TypeConverter converter;
      SetVector<Type> supported;
      supported.insert(Float16Type::get(context));
      if (nativeBF16)
        supported.insert(BFloat16Type::get(context));
      math::populateExtendToSupportedTypesTypeConverter(converter, supported,
                                                        f32);
      RewritePatternSet patterns(context);
      math::populateExtendToSupportedTypesPatterns(patterns, converter);
      ConversionTarget target(*context);
      math::populateExtendToSupportedTypesConversionTarget(target, converter);
      if (failed(applyPartialConversion(root, target, std::move(patterns))))
        return signalPassFailure();
    }
    // The bf16 conversions those made, and the program's, by integer
    // rounding where the CPU has no instruction for them.
    if (!nativeBF16) {
      RewritePatternSet patterns(context);
      arith::populateExpandBFloat16Patterns(patterns);
      if (failed(applyPatternsGreedily(root, std::move(patterns))))
        return signalPassFailure();
    }
    if (llvm::none_of(smallTypes, [](Type type) {
          return cast<FloatType>(type).getWidth() <= 8;
        }))
      return;
    // Conversions and constants into integer operations.
    RewritePatternSet patterns(context);
    // Ahead of upstream's f8E8M0FNU extension, which flushes 2^-127 to 0.
    patterns.add<ExpandExtF>(context, /*benefit=*/2);
    patterns.add<ExpandTruncF, ExpandConstant>(context);
    arith::populateExpandScalingExtTruncPatterns(patterns);
    arith::populateExpandF8E8M0Patterns(patterns);
    // No folding: it would turn the bitcasts of integer constants back
    // into small-float constants.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    if (failed(applyPatternsGreedily(root, std::move(patterns), config)))
      return signalPassFailure();
  }
};
} // namespace
