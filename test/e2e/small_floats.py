#!/usr/bin/python3
"""Writes the small-float end-to-end test program to stdout.

For every 8-bit and narrower float type MLIR knows, three cases:

- ext_T: every bit pattern extended to f32 by Kiln's generated code must
  equal, bit for bit, the same extension of constants folded by MLIR
  (APFloat); small_floats.test checks that the folding happened;
- ext_T again, against this script's decoding of the format, which so is
  checked against APFloat too;
- trunc_T: a grid of f32 values holding every tie of up to five mantissa
  bits, subnormals, overflow, infinities, NaN and zeros, truncated by Kiln,
  against this script's rounding (nearest, ties to even, over the decoded
  values; special cases as APFloat maps them). MLIR does not fold inexact
  truncations, so this reference is computed here, from the decoding
  checked above.

f8E8M0FNU (an exponent only) is checked for extension; its truncation is
upstream MLIR's expansion and is not checked here.
"""

import math
from fractions import Fraction

# name: (width, exponent bits, mantissa bits, bias, kind)
# kind: "ieee" (inf, NaNs at the top exponent), "fn" (no inf; NaN is the
# all-ones magnitude), "fnuz" (no inf, no -0; NaN is the pattern of -0),
# "finite" (no inf, no NaN), "e8m0" (unsigned exponent).
TYPES = {
    "f8E5M2": (8, 5, 2, 15, "ieee"),
    "f8E4M3": (8, 4, 3, 7, "ieee"),
    "f8E3M4": (8, 3, 4, 3, "ieee"),
    "f8E4M3FN": (8, 4, 3, 7, "fn"),
    "f8E5M2FNUZ": (8, 5, 2, 16, "fnuz"),
    "f8E4M3FNUZ": (8, 4, 3, 8, "fnuz"),
    "f8E4M3B11FNUZ": (8, 4, 3, 11, "fnuz"),
    "f6E2M3FN": (6, 2, 3, 1, "finite"),
    "f6E3M2FN": (6, 3, 2, 3, "finite"),
    "f4E2M1FN": (4, 2, 1, 1, "finite"),
    "f8E8M0FNU": (8, 8, 0, 127, "e8m0"),
}


def decode(name, code):
    """The value of `code` in format `name` (a float; nan and inf too)."""
    width, ebits, mbits, bias, kind = TYPES[name]
    if kind == "e8m0":
        return math.nan if code == 0xFF else 2.0 ** (code - 127)
    sign = -1.0 if code >> (width - 1) else 1.0
    magnitude = code & ((1 << (width - 1)) - 1)
    e, m = magnitude >> mbits, magnitude & ((1 << mbits) - 1)
    top = (1 << ebits) - 1
    if kind == "ieee" and e == top:
        return sign * math.inf if m == 0 else math.nan
    if kind == "fn" and magnitude == (1 << (width - 1)) - 1:
        return math.nan
    if kind == "fnuz" and code == 1 << (width - 1):
        return math.nan
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mbits)
    return sign * (1 + m / 2 ** mbits) * 2.0 ** (e - bias)


def truncate(name, x):
    """The code of f32 `x` rounded into format `name`, as APFloat does."""
    width, ebits, mbits, bias, kind = TYPES[name]
    signbit = 1 << (width - 1)
    negative = math.copysign(1.0, x) < 0
    sign = signbit if negative else 0
    finite = [c for c in range(signbit) if math.isfinite(decode(name, c))]
    largest = max(finite, key=lambda c: decode(name, c))
    nan_code = {"ieee": (((1 << ebits) - 1) << mbits) | (1 << (mbits - 1)),
                "fn": signbit - 1, "fnuz": signbit, "finite": 0}[kind]
    if math.isnan(x):
        return signbit if kind == "fnuz" else nan_code | sign
    if math.isinf(x):
        if kind == "ieee":
            return (((1 << ebits) - 1) << mbits) | sign
        return signbit if kind == "fnuz" else nan_code | sign
    # Nearest value, ties to the even pattern; past the largest value the
    # next one (as if the exponent went on) stands for overflow.
    target = Fraction(abs(x))
    candidates = [(Fraction(decode(name, c)), c) for c in finite]
    e, m = largest >> mbits, largest & ((1 << mbits) - 1)
    m += 1
    if m == 1 << mbits:
        e, m = e + 1, 0
    beyond = Fraction(1 + Fraction(m, 1 << mbits)) * Fraction(2) ** (e - bias)
    candidates.append((beyond, None))
    candidates.sort()
    best = min(candidates, key=lambda vc: (abs(vc[0] - target),
                                           (vc[1] if vc[1] is not None
                                            else largest + 1) & 1))
    code = best[1]
    if code is None:  # overflow
        if kind == "ieee":
            return (((1 << ebits) - 1) << mbits) | sign
        if kind == "fn":
            return nan_code | sign
        if kind == "fnuz":
            return signbit
        return largest | sign
    if code == 0 and kind == "fnuz":
        return 0
    return code | sign


def quiet_nan(name, code):
    """`code`, or a quiet NaN's code in place of a signaling NaN's."""
    width, ebits, mbits, _, kind = TYPES[name]
    magnitude = code & ((1 << (width - 1)) - 1)
    quiet_bit = 1 << (mbits - 1) if mbits else 0
    if (kind == "ieee" and magnitude >> mbits == (1 << ebits) - 1 and
            magnitude & ((1 << mbits) - 1) and not magnitude & quiet_bit):
        return code | quiet_bit
    return code


def grid():
    # Specials first: zeros, infinities, NaN, the largest and smallest f32.
    values = [0.0, -0.0, math.inf, -math.inf, math.nan,
              3.4028234663852886e38, -3.4028234663852886e38,
              1.401298464324817e-45, -1.401298464324817e-45]
    for exponent in range(-18, 18):
        for step in range(32):
            value = (1 + step / 32) * 2.0 ** exponent
            values.append(value)
            if step % 3 == 0:
                values.append(-value)
    return values


def numpy_f32(value):
    if math.isnan(value):
        return "np.nan"
    if math.isinf(value):
        return "np.inf" if value > 0 else "-np.inf"
    return repr(value)


def as_i8(codes):
    return [c - 256 if c >= 128 else c for c in codes]


def print_ext(function, name, codes, constant=None):
    """An extension of `codes` patterns of type `name` to f32: of its input,
    or of `constant` (a list of patterns) when given."""
    width = TYPES[name][0]
    narrow = f"i{width}"
    argument = "" if constant else f"%codes: tensor<{codes}xi8>"
    print(f"func.func @{function}({argument}) -> tensor<{codes}xf32> {{")
    if constant:
        print(f"  %codes = arith.constant dense<{as_i8(constant)}> : "
              f"tensor<{codes}xi8>")
    source = "%codes"
    if width < 8:
        print(f"  %narrow = arith.trunci %codes : tensor<{codes}xi8> to "
              f"tensor<{codes}x{narrow}>")
        source = "%narrow"
    print(f"  %f = arith.bitcast {source} : tensor<{codes}x{narrow}> to "
          f"tensor<{codes}x{name}>")
    print(f"  %e = arith.extf %f : tensor<{codes}x{name}> to tensor<{codes}xf32>")
    print(f"  return %e : tensor<{codes}xf32>")
    print("}")


def main():
    print("// Generated by small_floats.py; see small_floats.test.\n")
    values = grid()
    n = len(values)
    for name, (width, _, _, _, kind) in TYPES.items():
        codes = 1 << width
        narrow = f"i{width}"
        # Against APFloat. MLIR does not fold the extension of a signaling
        # NaN: a quiet one stands in (any NaN matches any NaN). It folds
        # f8E8M0FNU's NaN (0xFF) to inf: that one is left out.
        folded = [quiet_nan(name, c) for c in range(codes)]
        if kind == "e8m0":
            folded = folded[:-1]
        count = len(folded)
        print(f"// CASE: ext_{name}_all")
        print(f"// INPUT: codes = np.array({as_i8(range(count))}, dtype=np.int8)")
        print(f"// REFERENCE-FUNCTION: ext_{name}_folded")
        print("// TOLERANCE: 0")
        print_ext(f"ext_{name}_all", name, count)
        print_ext(f"ext_{name}_folded", name, count, folded)
        # Against this script's decoding, which the trunc_ cases rely on.
        decoded = ", ".join(numpy_f32(decode(name, c)) for c in range(codes))
        print(f"// CASE: ext_{name}")
        print(f"// INPUT: codes = np.array({as_i8(range(codes))}, dtype=np.int8)")
        print(f"// REFERENCE: np.array([{decoded}], dtype=np.float32)")
        print("// TOLERANCE: 0")
        print_ext(f"ext_{name}", name, codes)
        print()
        if kind == "e8m0":
            continue
        expected = [truncate(name, v) for v in values]
        expected = as_i8(expected)
        print(f"// CASE: trunc_{name}")
        print(f"// INPUT: x = np.array([{', '.join(numpy_f32(v) for v in values)}],"
              f" dtype=np.float32)")
        print(f"// REFERENCE: np.array({expected}, dtype=np.int8)")
        print(f"func.func @trunc_{name}(%x: tensor<{n}xf32>) -> tensor<{n}xi8> {{")
        print(f"  %t = arith.truncf %x : tensor<{n}xf32> to tensor<{n}x{name}>")
        print(f"  %b = arith.bitcast %t : tensor<{n}x{name}> to tensor<{n}x{narrow}>")
        if width < 8:
            print(f"  %w = arith.extui %b : tensor<{n}x{narrow}> to tensor<{n}xi8>")
            print(f"  return %w : tensor<{n}xi8>")
        else:
            print(f"  return %b : tensor<{n}xi8>")
        print("}")
        print()


if __name__ == "__main__":
    main()
