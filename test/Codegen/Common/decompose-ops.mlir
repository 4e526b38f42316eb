// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-decompose-ops))' | FileCheck %s

// Softmax: row max, exp of the difference, row sum, division.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     linalg.softmax
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maxnumf
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:           arith.divf

// A pack whose tiles divide the source: a reshape and a transpose.
// CHECK-LABEL: func.func @pack
// CHECK-NOT:     linalg.pack
// CHECK:         %[[E:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2, 3]] output_shape [2, 8, 4, 8]
// CHECK:         linalg.transpose ins(%[[E]] : tensor<2x8x4x8xf32>) {{.*}} permutation = [0, 2, 1, 3]

// A concatenation: each operand inserted at its offset.
// CHECK-LABEL: func.func @concat
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK:         %[[FIRST:.+]] = tensor.insert_slice %{{.+}} into %[[EMPTY]][0, 0] [4, 3] [1, 1]
// CHECK:         tensor.insert_slice %{{.+}} into %[[FIRST]][0, 3] [4, 5] [1, 1]

// Everything else stays.
// CHECK-LABEL: func.func @matmul
// CHECK:         linalg.matmul
func.func @softmax(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
func.func @pack(%x: tensor<16x32xf32>) -> tensor<2x4x8x8xf32> {
  %e = tensor.empty() : tensor<2x4x8x8xf32>
  %r = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<16x32xf32> -> tensor<2x4x8x8xf32>
  return %r : tensor<2x4x8x8xf32>
}
func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x8xf32> {
  %r = tensor.concat dim(1) %a, %b : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @matmul(%a: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
