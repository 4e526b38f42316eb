// RUN: kiln-opt %s --split-input-file --kiln-onnx-convert-to-linalg --verify-diagnostics | FileCheck %s

// TopK as ranks: a generic counts, for each element, the elements before
// it along the axis (larger, or equal at a lower index); a second one
// gathers the element of rank r into output position r, with its index.
// CHECK-LABEL: func.func @top_k
// CHECK:         %[[RANKS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           arith.cmpf ogt
// CHECK:           arith.cmpf oeq
// CHECK:           arith.cmpi ult
// CHECK:           arith.addi
// CHECK:         %[[OUT:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:      ins(%{{.*}}, %[[RANKS]] : tensor<3x4xf32>, tensor<3x4xi64>)
// CHECK-SAME:      outs(%{{.*}}, %{{.*}} : tensor<3x2xf32>, tensor<3x2xi64>)
// CHECK:         return %[[OUT]]#0, %[[OUT]]#1
func.func @top_k(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %k = arith.constant dense<2> : tensor<1xi64>
  %0:2 = onnx.node "TopK"(%x, %k) {opset = 11 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// -----

// The smallest of unsigned integers, K known only at run time: unsigned
// compares, the output's size along the axis read from K.
// CHECK-LABEL: func.func @smallest_unsigned
// CHECK:         arith.cmpi ult
// CHECK:         %[[K:.*]] = tensor.extract %{{.*}}[%{{.*}}] : tensor<1xi64>
// CHECK:         %[[SIZE:.*]] = arith.index_cast %[[K]] : i64 to index
// CHECK:         tensor.empty(%[[SIZE]]) : tensor<?xi8>
func.func @smallest_unsigned(%x: tensor<6xui8>, %k: tensor<1xi64>) -> (tensor<?xui8>, tensor<?xi64>) {
  %0:2 = onnx.node "TopK"(%x, %k) {opset = 11 : i64, onnx_attrs = {largest = 0 : i64}} : (tensor<6xui8>, tensor<1xi64>) -> (tensor<?xui8>, tensor<?xi64>)
  return %0#0, %0#1 : tensor<?xui8>, tensor<?xi64>
}

// -----

func.func @bad_axis(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  // expected-error @+1 {{node (TopK, opset 11): attribute 'axis' 2 is out of range for rank 2}}
  %0:2 = onnx.node "TopK"(%x, %k) {opset = 11 : i64, onnx_attrs = {axis = 2 : i64}} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi64>
}
