// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-drop-retained-deallocs))' | FileCheck %s

// A buffer that is one of the retained values, itself or as the base of one,
// leaves the dealloc; other buffers stay with their conditions.
// CHECK-LABEL: func.func @returned(
// CHECK-SAME:      %[[ARG:[^:]+]]: memref<4xf32>, %[[C:[^:]+]]: i1)
// CHECK:         %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[T:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[BASE:.+]], %{{.+}}, %{{.+}}, %{{.+}} = memref.extract_strided_metadata %[[ARG]]
// CHECK:         bufferization.dealloc (%[[BASE]], %[[T]] : memref<f32>, memref<4xf32>) if (%[[C]], %[[C]]) retain (%[[A]], %[[B]] : memref<4xf32>, memref<4xf32>)
// CHECK-NEXT:    return %[[A]], %[[B]]
func.func @returned(%arg: memref<4xf32>, %c: i1) -> (memref<4xf32>, memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %t = memref.alloc() : memref<4xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %arg : memref<4xf32> -> memref<f32>, index, index, index
  %base_a, %offset_a, %size_a, %stride_a = memref.extract_strided_metadata %a : memref<4xf32> -> memref<f32>, index, index, index
  %0:2 = bufferization.dealloc (%base, %base_a, %b, %t : memref<f32>, memref<f32>, memref<4xf32>, memref<4xf32>) if (%c, %c, %c, %c) retain (%a, %b : memref<4xf32>, memref<4xf32>)
  return %a, %b : memref<4xf32>, memref<4xf32>
}

// -----

// When the updated ownership of the retained values is used, the dealloc
// stays as it is.
// CHECK-LABEL: func.func @ownership_used(
// CHECK:         %{{.+}} = bufferization.dealloc (%[[A:.+]] : memref<4xf32>) if (%{{.+}}) retain (%[[A]] : memref<4xf32>)
func.func @ownership_used(%c: i1) -> (memref<4xf32>, i1) {
  %a = memref.alloc() : memref<4xf32>
  %0 = bufferization.dealloc (%a : memref<4xf32>) if (%c) retain (%a : memref<4xf32>)
  return %a, %0 : memref<4xf32>, i1
}
