// Arithmetic on an 8-bit float runs in f32: each operand decoded from its
// bit pattern, the sum rounded back (to nearest even) into a pattern.
func.func @add(%a: vector<4xf8E4M3FN>, %b: vector<4xf8E4M3FN>) -> vector<4xf8E4M3FN> {
  %c = arith.addf %a, %b : vector<4xf8E4M3FN>
  return %c : vector<4xf8E4M3FN>
}

// Constants become their bit patterns (1.0 and -2.0 in f8E5M2).
func.func @constant() -> vector<2xf8E5M2> {
  %c = arith.constant dense<[1.0, -2.0]> : vector<2xf8E5M2>
  return %c : vector<2xf8E5M2>
}

// Math functions too, through f32.
func.func @exp(%a: f4E2M1FN) -> f4E2M1FN {
  %e = math.exp %a : f4E2M1FN
  return %e : f4E2M1FN
}

// f8E8M0FNU is an exponent: shifted into place; 0 is 2^-127, 255 NaN.
func.func @scale(%s: f8E8M0FNU) -> f32 {
  %e = arith.extf %s : f8E8M0FNU to f32
  return %e : f32
}

// Other floats are left alone.
func.func @untouched(%a: vector<4xf32>) -> vector<4xf16> {
  %t = arith.truncf %a : vector<4xf32> to vector<4xf16>
  return %t : vector<4xf16>
}
