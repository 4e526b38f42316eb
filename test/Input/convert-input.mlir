// RUN: kiln-opt %s --split-input-file --kiln-convert-input | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-convert-input=input-type=tosa | FileCheck %s
// RUN: kiln-opt %s --split-input-file --kiln-convert-input=input-type=none | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @tosa_matmul_add
// CHECK-NOT:     tosa.
// CHECK:         %[[FILL:.+]] = linalg.fill
// CHECK:         %[[MM:.+]] = linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<1x4x8xf32>, tensor<1x8x16xf32>) outs(%[[FILL]]
// CHECK:         linalg.generic {{.*}} ins(%[[MM]], %{{.+}} : tensor<1x4x16xf32>, tensor<1x1x16xf32>)
// CHECK:           arith.addf
// CHECK-NOT:     tosa.
// NONE-LABEL: func.func @tosa_matmul_add
// NONE:         tosa.matmul
// NONE:         tosa.add
func.func @tosa_matmul_add(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>, %bias: tensor<1x1x16xf32>) -> tensor<1x4x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  %1 = tosa.add %0, %bias : (tensor<1x4x16xf32>, tensor<1x1x16xf32>) -> tensor<1x4x16xf32>
  return %1 : tensor<1x4x16xf32>
}

// -----

// TOSA's control flow becomes scf, its reshapes tensor ops, its constants
// arith constants.
// CHECK-LABEL: func.func @tosa_control_flow
// CHECK-NOT:     tosa.
// CHECK:         %[[ONES:.+]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK:         scf.if
// CHECK:           tensor.collapse_shape
// CHECK:         } else {
// CHECK:           scf.yield %[[ONES]]
// CHECK-NOT:     tosa.
func.func @tosa_control_flow(%c: tensor<i1>, %a: tensor<2x2xf32>) -> tensor<4xf32> {
  %r = tosa.cond_if %c : tensor<i1> -> tensor<4xf32> {
    %shape = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
    %flat = tosa.reshape %a, %shape : (tensor<2x2xf32>, !tosa.shape<1>) -> tensor<4xf32>
    tosa.yield %flat : tensor<4xf32>
  } else {
    %ones = "tosa.const"() <{values = dense<1.0> : tensor<4xf32>}> : () -> tensor<4xf32>
    tosa.yield %ones : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Programs without TOSA are left alone.
// CHECK-LABEL: func.func @linalg_only
// CHECK:         linalg.exp
// NONE-LABEL: func.func @linalg_only
func.func @linalg_only(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
