// RUN: kiln-opt %s --kiln-expand-small-floats | FileCheck %s

// Arithmetic on an 8-bit float runs in f32: each operand decoded from its
// bit pattern, the sum rounded back (to nearest even) into a pattern.
// CHECK-LABEL: func.func @add
// CHECK-NOT:     arith.extf
// CHECK:         %[[B:.+]] = arith.bitcast %{{.+}} : vector<4xf8E4M3FN> to vector<4xi8>
// CHECK:         arith.extui %[[B]] : vector<4xi8> to vector<4xi32>
// CHECK:         arith.uitofp
// CHECK:         %[[SUM:.+]] = arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK:         arith.bitcast %[[SUM]] : vector<4xf32> to vector<4xi32>
// CHECK:         math.roundeven
// CHECK:         %[[CODE:.+]] = arith.trunci %{{.+}} : vector<4xi32> to vector<4xi8>
// CHECK:         %[[R:.+]] = arith.bitcast %[[CODE]] : vector<4xi8> to vector<4xf8E4M3FN>
// CHECK-NOT:     arith.truncf
// CHECK:         return %[[R]]
func.func @add(%a: vector<4xf8E4M3FN>, %b: vector<4xf8E4M3FN>) -> vector<4xf8E4M3FN> {
  %c = arith.addf %a, %b : vector<4xf8E4M3FN>
  return %c : vector<4xf8E4M3FN>
}

// Constants become their bit patterns (1.0 and -2.0 in f8E5M2).
// CHECK-LABEL: func.func @constant
// CHECK:         %[[BITS:.+]] = arith.constant dense<[60, -64]> : vector<2xi8>
// CHECK:         arith.bitcast %[[BITS]] : vector<2xi8> to vector<2xf8E5M2>
func.func @constant() -> vector<2xf8E5M2> {
  %c = arith.constant dense<[1.0, -2.0]> : vector<2xf8E5M2>
  return %c : vector<2xf8E5M2>
}

// Math functions too, through f32.
// CHECK-LABEL: func.func @exp
// CHECK:         math.exp %{{.+}} : f32
// CHECK:         arith.trunci %{{.+}} : i32 to i4
func.func @exp(%a: f4E2M1FN) -> f4E2M1FN {
  %e = math.exp %a : f4E2M1FN
  return %e : f4E2M1FN
}

// f8E8M0FNU is an exponent: shifted into place; 0 is 2^-127, 255 NaN.
// CHECK-LABEL: func.func @scale
// CHECK-DAG:     %[[SUBNORMAL:.+]] = arith.constant 4194304 : i32
// CHECK-DAG:     %[[NAN:.+]] = arith.constant 2143289344 : i32
// CHECK:         arith.shli %{{.+}}, %{{.+}} : i32
// CHECK:         arith.select %{{.+}}, %[[SUBNORMAL]]
// CHECK:         arith.select %{{.+}}, %[[NAN]]
func.func @scale(%s: f8E8M0FNU) -> f32 {
  %e = arith.extf %s : f8E8M0FNU to f32
  return %e : f32
}

// Other floats are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    arith.truncf %{{.+}} : vector<4xf32> to vector<4xf16>
func.func @untouched(%a: vector<4xf32>) -> vector<4xf16> {
  %t = arith.truncf %a : vector<4xf32> to vector<4xf16>
  return %t : vector<4xf16>
}

// f64 to f16 goes through f32 rounded to odd: the nearest f32, one step
// toward zero when it rounded away, its last bit set when inexact.
// CHECK-LABEL: func.func @f64_to_f16
// CHECK:         %[[NEAR:.+]] = arith.truncf %[[X:.+]] : vector<4xf64> to vector<4xf32>
// CHECK:         %[[BACK:.+]] = arith.extf %[[NEAR]] : vector<4xf32> to vector<4xf64>
// CHECK:         %[[INEXACT:.+]] = arith.cmpf one, %[[BACK]], %[[X]]
// CHECK-DAG:     %[[NEG:.+]] = arith.cmpf olt, %[[X]], %{{.+}}
// CHECK-DAG:     %[[BELOW:.+]] = arith.cmpf olt, %[[BACK]], %[[X]]
// CHECK-DAG:     %[[ABOVE:.+]] = arith.cmpf ogt, %[[BACK]], %[[X]]
// CHECK:         %[[AWAY:.+]] = arith.select %[[NEG]], %[[BELOW]], %[[ABOVE]]
// CHECK:         %[[BITS:.+]] = arith.bitcast %[[NEAR]] : vector<4xf32> to vector<4xi32>
// CHECK:         %[[STEP:.+]] = arith.subi %[[BITS]]
// CHECK:         %[[TRUNC:.+]] = arith.select %[[AWAY]], %[[STEP]], %[[BITS]]
// CHECK:         %[[ODD:.+]] = arith.ori %[[TRUNC]]
// CHECK:         %[[PICK:.+]] = arith.select %[[INEXACT]], %[[ODD]], %[[BITS]]
// CHECK:         %[[F32:.+]] = arith.bitcast %[[PICK]] : vector<4xi32> to vector<4xf32>
// CHECK:         arith.truncf %[[F32]] : vector<4xf32> to vector<4xf16>
func.func @f64_to_f16(%x: vector<4xf64>) -> vector<4xf16> {
  %r = arith.truncf %x : vector<4xf64> to vector<4xf16>
  return %r : vector<4xf16>
}

// Truncations to f32 or from f32 stay as they are.
// CHECK-LABEL: func.func @wide
// CHECK-NEXT:    arith.truncf %{{.+}} : f64 to f32
// CHECK-NEXT:    arith.truncf %{{.+}} : f32 to f16
func.func @wide(%x: f64, %y: f32) -> (f32, f16) {
  %a = arith.truncf %x : f64 to f32
  %b = arith.truncf %y : f32 to f16
  return %a, %b : f32, f16
}
