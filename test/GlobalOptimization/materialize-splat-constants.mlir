// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-materialize-splat-constants))' | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-materialize-splat-constants{max-bytes=0}))' | FileCheck %s --check-prefix=ALL

// A splat of 40 GB becomes a fill; nothing writes out its elements.
// CHECK-LABEL: func.func @huge
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<100000x100000xf32>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ONE]] : f32) outs(%[[EMPTY]] : tensor<100000x100000xf32>)
// CHECK: return %[[FILL]]
func.func @huge() -> tensor<100000x100000xf32> {
  %c = arith.constant dense<1.0> : tensor<100000x100000xf32>
  return %c : tensor<100000x100000xf32>
}

// -----

// One page of splat and less stays a constant; a byte more does not.
// CHECK-LABEL: func.func @page
// CHECK: arith.constant dense<7> : tensor<1024xi32>
// CHECK: linalg.fill ins(%{{.+}} : i8) outs(%{{.+}} : tensor<4097xi8>)
// ALL-LABEL: func.func @page
// ALL-NOT: dense<
// ALL: linalg.fill ins(%{{.+}} : i32) outs(%{{.+}} : tensor<1024xi32>)
func.func @page() -> (tensor<1024xi32>, tensor<4097xi8>) {
  %a = arith.constant dense<7> : tensor<1024xi32>
  %b = arith.constant dense<-1> : tensor<4097xi8>
  return %a, %b : tensor<1024xi32>, tensor<4097xi8>
}

// -----

// A size past 2^63 bytes counts as large, not as an overflowed small one.
// CHECK-LABEL: func.func @overflow
// CHECK: linalg.fill ins(%{{.+}} : f64) outs(%{{.+}} : tensor<4294967296x4294967296xf64>)
func.func @overflow() -> tensor<4294967296x4294967296xf64> {
  %c = arith.constant dense<0.5> : tensor<4294967296x4294967296xf64>
  return %c : tensor<4294967296x4294967296xf64>
}

// -----

// Constants that are not splats, and scalars, are left alone.
// CHECK-LABEL: func.func @others
// CHECK: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: arith.constant 3.000000e+00 : f32
// CHECK-NOT: linalg.fill
func.func @others() -> (tensor<2xf32>, f32) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant 3.0 : f32
  return %a, %b : tensor<2xf32>, f32
}
