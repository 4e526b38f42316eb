// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-check-dynamic-shapes))' | FileCheck %s

// Operands that share a loop must have its size; the check of the inputs
// runs first, the result's (computed from input 0) folds away.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    (%[[X:.+]]: tensor<?xf32>, %[[Y:.+]]: tensor<?xf32>)
// CHECK-DAG:     %[[N:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK-DAG:     %[[M:.+]] = tensor.dim %[[Y]], %{{.+}}
// CHECK:         %[[SAME:.+]] = arith.cmpi eq, %[[M]], %[[N]] : index
// CHECK:         kiln.assert %[[SAME]], "'add_node': dimension 0 of 'y' (input 1) is {0}, but dimension 0 of 'x' (input 0) is {1}; they must be equal"(%[[M]], %[[N]] : index, index)
// CHECK-NOT:     kiln.assert
// CHECK:         linalg.generic
func.func @elementwise(%x: tensor<?xf32> loc("x"), %y: tensor<?xf32> loc("y")) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?xf32> loc("add_node")
  return %r : tensor<?xf32>
}

// -----

// A size the program computed from the other operand is equal by
// construction: no check. Static programs get none.
// CHECK-LABEL: func.func @equal_by_construction
// CHECK-NOT:     kiln.assert
func.func @equal_by_construction(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.exp ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.add ins(%r, %x : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// CHECK-LABEL: func.func @static
// CHECK-NOT:     kiln.assert
func.func @static(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x6xf32>, tensor<6x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A check of an intermediate's size takes it from the op that made it
// (an extra use would keep that op from fusing), and runs at the start.
// CHECK-LABEL: func.func @intermediate
// CHECK-SAME:    (%[[X:.+]]: tensor<?xf32>, %[[Y:.+]]: tensor<?xf32>)
// CHECK:         tensor.dim %[[X]]
// CHECK:         tensor.dim %[[Y]]
// CHECK:         kiln.assert
// CHECK:         %[[EXP:.+]] = linalg.exp
// CHECK-NOT:     tensor.dim %[[EXP]]
// CHECK:         linalg.add ins(%[[EXP]], %[[Y]]
func.func @intermediate(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.exp ins(%x : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.add ins(%r, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// -----

// A window must fit in its input, unless a loop of it is empty.
// CHECK-LABEL: func.func @window
// CHECK-DAG:     %[[EMPTY:.+]] = arith.cmpi eq
// CHECK-DAG:     %[[FITS:.+]] = arith.cmpi slt
// CHECK:         arith.ori %[[FITS]], %[[EMPTY]]
// CHECK:         kiln.assert %{{.+}}, "'linalg.conv_1d_nwc_wcf': dimension 1 of input 0 is {0}, but the op reads it up to index {1}"
func.func @window(%x: tensor<1x?x1xf32>, %w: tensor<3x1x1xf32>, %o: tensor<1x?x1xf32>) -> tensor<1x?x1xf32> {
  %r = linalg.conv_1d_nwc_wcf ins(%x, %w : tensor<1x?x1xf32>, tensor<3x1x1xf32>) outs(%o : tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
  return %r : tensor<1x?x1xf32>
}

// -----

// Casts, reshapes, slices, concatenations, pads and host indices.
// CHECK-LABEL: func.func @tensor_ops
// CHECK:         kiln.assert %{{.+}}, "'tensor.pad': the low padding of dimension 0 is {0}; it must not be negative"
// CHECK:         kiln.assert %{{.+}}, "'tensor.cast': dimension 0 of input 0 is {0}, but the program needs {1} there"
// CHECK:         kiln.assert %{{.+}}, "'tensor.expand_shape': dimension 0 of its input is {0}, which cannot be split into dimensions of that product ({1})"
// CHECK:         kiln.assert %{{.+}}, "'tensor.extract_slice': a slice of {1} elements from offset {0} with step {2} along dimension 0 of input 0, whose size is {3}"
// CHECK:         kiln.assert %{{.+}}, "'tensor.extract': a read at index {0} of dimension 0 of input 0, whose size is {1}"
// CHECK:         kiln.assert %{{.+}}, "'tensor.concat': dimension 1 of input 2 is {0}, but dimension 1 of input 1 is {1}; a concatenation along dimension 0 needs them equal"
// CHECK:         tensor.cast
func.func @tensor_ops(%x: tensor<?xf32>, %y: tensor<?x?xf32>, %z: tensor<?x?xf32>, %n: index) -> (tensor<4xf32>, tensor<?x2xf32>, tensor<3xf32>, tensor<?xf32>, f32, tensor<?x?xf32>) {
  %cast = tensor.cast %x : tensor<?xf32> to tensor<4xf32>
  %expanded = tensor.expand_shape %x [[0, 1]] output_shape [%n, 2] : tensor<?xf32> into tensor<?x2xf32>
  %slice = tensor.extract_slice %x[%n] [3] [1] : tensor<?xf32> to tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[%n] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<?xf32> to tensor<?xf32>
  %v = tensor.extract %x[%n] : tensor<?xf32>
  %joined = tensor.concat dim(0) %y, %z : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %cast, %expanded, %slice, %padded, %v, %joined : tensor<4xf32>, tensor<?x2xf32>, tensor<3xf32>, tensor<?xf32>, f32, tensor<?x?xf32>
}
