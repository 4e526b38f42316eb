// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-lower-dynamic-expand-shapes))' | FileCheck %s

// A dimension split into two dynamic ones (which MLIR 22.1's
// expand-strided-metadata crashes on) becomes a reinterpret_cast: the
// source's base and offset, the output sizes, and strides in each group
// from the source's stride times the sizes after it.
// CHECK-LABEL: func.func @two_dynamic
// CHECK-SAME:    (%[[X:.+]]: memref<?xf32>, %[[A:.+]]: index, %[[B:.+]]: index)
// CHECK:         %[[BASE:.+]], %{{.+}}, %{{.+}}, %[[STRIDE:.+]] = memref.extract_strided_metadata %[[X]]
// CHECK:         %[[OUTER:.+]] = arith.muli %[[STRIDE]], %[[B]] : index
// CHECK:         memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%[[A]], %[[B]]], strides: [%[[OUTER]], 1]
func.func @two_dynamic(%x: memref<?xf32>, %a: index, %b: index) -> memref<?x?xf32> {
  %y = memref.expand_shape %x [[0, 1]] output_shape [%a, %b] : memref<?xf32> into memref<?x?xf32>
  return %y : memref<?x?xf32>
}

// -----

// One dynamic size per group: left to expand-strided-metadata.
// CHECK-LABEL: func.func @one_dynamic
// CHECK:         memref.expand_shape
func.func @one_dynamic(%x: memref<?xf32>, %a: index) -> memref<?x4xf32> {
  %y = memref.expand_shape %x [[0, 1]] output_shape [%a, 4] : memref<?xf32> into memref<?x4xf32>
  return %y : memref<?x4xf32>
}
