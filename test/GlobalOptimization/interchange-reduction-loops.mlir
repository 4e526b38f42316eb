// RUN: kiln-opt %s --split-input-file --kiln-interchange-reduction-loops | FileCheck %s

// A global pooling that reads a channels-last image with its channel loop
// outside the reduced ones: the loops follow the image's memory order,
// the channel loop innermost.
// CHECK-DAG:   #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
// CHECK-LABEL: func.func @pool
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[OUT]]], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
func.func @pool(%x: tensor<1x2x3x8xf32>, %init: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %p = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x2x3x8xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  return %p : tensor<1x8xf32>
}

// -----

// A reduction that reads its input in loop order, and a matmul, are left
// as they are.
// CHECK-LABEL: func.func @unchanged
// CHECK:         iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK:         linalg.matmul
func.func @unchanged(%x: tensor<1x8x2x3xf32>, %init: tensor<1x8xf32>, %a: tensor<4x5xf32>, %b: tensor<5x6xf32>, %c: tensor<4x6xf32>) -> (tensor<1x8xf32>, tensor<4x6xf32>) {
  %p = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x8x2x3xf32>) outs(%init : tensor<1x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x6xf32>) outs(%c : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %p, %m : tensor<1x8xf32>, tensor<4x6xf32>
}
