// RUN: kiln-opt %s --kiln-convert-iree-compat | FileCheck %s

// Unfoldable constants and dynamic constants hide behind barriers; IREE's
// barrier becomes Kiln's.
// CHECK-LABEL: func.func @constants
// CHECK:         %[[C:.+]] = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK:         %[[OPAQUE:.+]] = kiln.optimization_barrier %[[C]] : tensor<3xi32>
// CHECK:         %[[N:.+]] = arith.constant 4 : index
// CHECK:         %[[OPAQUE_N:.+]] = kiln.optimization_barrier %[[N]] : index
// CHECK:         %[[D:.+]] = arith.constant dense<1.000000e+00> : tensor<4x2xf32>
// CHECK:         %[[CAST:.+]] = tensor.cast %[[D]] : tensor<4x2xf32> to tensor<?x2xf32>
// CHECK:         %[[OPAQUE_D:.+]] = kiln.optimization_barrier %[[CAST]] : tensor<?x2xf32>
// CHECK:         %[[B:.+]] = kiln.optimization_barrier %[[OPAQUE]] : tensor<3xi32>
// CHECK:         return %[[B]], %[[OPAQUE_N]], %[[OPAQUE_D]]

// tie_shape only names sizes.
// CHECK-LABEL: func.func @tie
// CHECK-NEXT:    return %arg0

// Bitcasts: elementwise between types of one width; unpacking two f4 per
// byte, the first in the low bits.
// CHECK-LABEL: func.func @bitcasts
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<8xf4E2M1FN>)
// CHECK:           %[[J:.+]] = linalg.index 0 : index
// CHECK:           %[[BYTE:.+]] = arith.divui %[[J]], %c2
// CHECK:           %[[E:.+]] = tensor.extract %arg0[%[[BYTE]]] : tensor<4xi8>
// CHECK:           arith.remui %[[J]], %c2
// CHECK:           arith.shrui %[[E]]
// CHECK:           arith.trunci %{{.+}} : i8 to i4
// CHECK:           arith.bitcast %{{.+}} : i4 to f4E2M1FN
// CHECK:         arith.bitcast %arg1 : tensor<4xf32> to tensor<4xi32>

// Packing: two f4 into each byte.
// CHECK-LABEL: func.func @pack_f4
// CHECK:         linalg.generic {{.*}} outs(%{{.+}} : tensor<4xi8>)
// CHECK-COUNT-2:   tensor.extract %arg0
// CHECK:           arith.shli %{{.+}}, %c4_i8
// CHECK:           arith.ori

// Checks: tolerances kept; types the runtime does not compare widened
// exactly (i4 sign-extended to i8, f8 extended to f32).
// CHECK-LABEL: func.func @checks
// CHECK:         %[[ONE:.+]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK:         kiln.check almost_eq(%arg0, %[[ONE]]) {atol = 0.00999999977 : f32, rtol = 1.000000e-03 : f32}
// CHECK:         kiln.check almost_eq(%arg0, %arg0) : tensor<4xf32>, tensor<4xf32>
// CHECK:         %[[I8:.+]] = arith.extsi %arg1 : tensor<2xi4> to tensor<2xi8>
// CHECK:         %[[E8:.+]] = arith.extsi %{{.+}} : tensor<2xi4> to tensor<2xi8>
// CHECK:         kiln.check eq(%[[I8]], %[[E8]]) : tensor<2xi8>, tensor<2xi8>
// CHECK:         arith.extf %arg3 : tensor<2xf8E4M3FN> to tensor<2xf32>
// CHECK:         kiln.check eq
// CHECK:         kiln.check true(%arg4) : i32
// CHECK:         kiln.check false(%arg4) : i32
func.func @constants() -> (tensor<3xi32>, index, tensor<?x2xf32>) {
  %c = util.unfoldable_constant dense<[1, 2, 3]> : tensor<3xi32>
  %n = util.unfoldable_constant 4 : index
  %d = flow.tensor.dynamic_constant dense<1.0> : tensor<4x2xf32> -> tensor<?x2xf32>
  %b = util.optimization_barrier %c : tensor<3xi32>
  return %b, %n, %d : tensor<3xi32>, index, tensor<?x2xf32>
}
func.func @tie(%t: tensor<?x?xi32>, %h: index, %w: index) -> tensor<?x?xi32> {
  %r = flow.tensor.tie_shape %t : tensor<?x?xi32>{%h, %w}
  return %r : tensor<?x?xi32>
}
func.func @bitcasts(%a: tensor<4xi8>, %b: tensor<4xf32>) -> (tensor<8xf4E2M1FN>, tensor<4xi32>) {
  %f4 = flow.tensor.bitcast %a : tensor<4xi8> -> tensor<8xf4E2M1FN>
  %i = flow.tensor.bitcast %b : tensor<4xf32> -> tensor<4xi32>
  return %f4, %i : tensor<8xf4E2M1FN>, tensor<4xi32>
}
func.func @pack_f4(%a: tensor<8xf4E2M1FN>) -> tensor<4xi8> {
  %i8 = flow.tensor.bitcast %a : tensor<8xf4E2M1FN> -> tensor<4xi8>
  return %i8 : tensor<4xi8>
}
func.func @checks(%a: tensor<4xf32>, %i: tensor<2xi4>, %x: index, %f8: tensor<2xf8E4M3FN>, %p: i32) {
  check.expect_almost_eq_const(%a, dense<1.0> : tensor<4xf32>, atol 1.0e-2, rtol 1.0e-3) : tensor<4xf32>
  check.expect_almost_eq(%a, %a) : tensor<4xf32>
  check.expect_eq_const(%i, dense<[1, -2]> : tensor<2xi4>) : tensor<2xi4>
  check.expect_eq(%f8, %f8) : tensor<2xf8E4M3FN>
  check.expect_true(%p) : i32
  check.expect_false(%p) : i32
  return
}
