// RUN: kiln-opt %s --split-input-file --kiln-onnx-eliminate-sequences --verify-diagnostics | FileCheck %s

// Constant positions pick list elements; the length is a constant; no
// sequence is left.
// CHECK-LABEL: func.func @constant_positions
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<2x3xf32>, %[[Z:.*]]: tensor<2x3xf32>)
// CHECK-NOT:     onnx.seq
// CHECK:         %[[LENGTH:.*]] = arith.constant dense<2> : tensor<i64>
// CHECK:         return %[[Z]], %[[LENGTH]]
func.func @constant_positions(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %z: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<i64>) {
  %one = arith.constant dense<1> : tensor<i64>
  %minus_one = arith.constant dense<-1> : tensor<i64>
  %s0 = onnx.node "SequenceConstruct"(%x, %y) {opset = 17 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.seq<tensor<2x3xf32>>
  %s1 = onnx.node "SequenceErase"(%s0, %one) {opset = 17 : i64} : (!onnx.seq<tensor<2x3xf32>>, tensor<i64>) -> !onnx.seq<tensor<2x3xf32>>
  %s2 = onnx.node "SequenceInsert"(%s1, %z) {opset = 17 : i64} : (!onnx.seq<tensor<2x3xf32>>, tensor<2x3xf32>) -> !onnx.seq<tensor<2x3xf32>>
  %at = onnx.node "SequenceAt"(%s2, %minus_one) {opset = 17 : i64} : (!onnx.seq<tensor<2x3xf32>>, tensor<i64>) -> tensor<2x3xf32>
  %length = onnx.node "SequenceLength"(%s2) {opset = 17 : i64} : (!onnx.seq<tensor<2x3xf32>>) -> tensor<i64>
  return %at, %length : tensor<2x3xf32>, tensor<i64>
}

// -----

// A position known at run time picks with a chain of scf.if, the
// elements cast to the result's type.
// CHECK-LABEL: func.func @runtime_position
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4xf32>, %[[Y:.*]]: tensor<1x4xf32>, %[[P:.*]]: tensor<i64>)
// CHECK:         %[[RAW:.*]] = tensor.extract %[[P]][]
// CHECK:         arith.index_cast %[[RAW]]
// CHECK:         %[[IF:.*]] = scf.if %{{.*}} -> (tensor<?x4xf32>)
// CHECK:           %[[CX:.*]] = tensor.cast %[[X]] : tensor<2x4xf32> to tensor<?x4xf32>
// CHECK:           scf.yield %[[CX]]
// CHECK:         } else {
// CHECK:           %[[CY:.*]] = tensor.cast %[[Y]] : tensor<1x4xf32> to tensor<?x4xf32>
// CHECK:           scf.yield %[[CY]]
// CHECK:         return %[[IF]]
func.func @runtime_position(%x: tensor<2x4xf32>, %y: tensor<1x4xf32>, %p: tensor<i64>) -> tensor<?x4xf32> {
  %s = onnx.node "SequenceConstruct"(%x, %y) {opset = 17 : i64} : (tensor<2x4xf32>, tensor<1x4xf32>) -> !onnx.seq<tensor<?x4xf32>>
  %at = onnx.node "SequenceAt"(%s, %p) {opset = 17 : i64} : (!onnx.seq<tensor<?x4xf32>>, tensor<i64>) -> tensor<?x4xf32>
  return %at : tensor<?x4xf32>
}

// -----

// SplitToSequence becomes Split (and Squeezes without keepdims);
// ConcatFromSequence with new_axis becomes Unsqueezes and a Concat.
// CHECK-LABEL: func.func @split_and_concat
// CHECK:         %[[SIZES:.*]] = arith.constant dense<1> : tensor<2xi64>
// CHECK:         %[[PARTS:.*]]:2 = onnx.node "Split"(%{{.*}}, %[[SIZES]]) {onnx_attrs = {axis = 0 : i64}, opset = 17 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<1x3xf32>, tensor<1x3xf32>)
// CHECK:         onnx.node "Squeeze"(%[[PARTS]]#0, %{{.*}}) {{.*}} -> tensor<3xf32>
// CHECK:         onnx.node "Squeeze"(%[[PARTS]]#1, %{{.*}}) {{.*}} -> tensor<3xf32>
// CHECK:         onnx.node "Unsqueeze"
// CHECK:         onnx.node "Unsqueeze"
// CHECK:         %[[C:.*]] = onnx.node "Concat"(%{{.*}}, %{{.*}}) {onnx_attrs = {axis = 1 : i64}, opset = 17 : i64} : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
// CHECK:         return %[[C]]
func.func @split_and_concat(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = onnx.node "SplitToSequence"(%x) {opset = 17 : i64, onnx_attrs = {keepdims = 0 : i64}} : (tensor<2x3xf32>) -> !onnx.seq<tensor<3xf32>>
  %c = onnx.node "ConcatFromSequence"(%s) {opset = 17 : i64, onnx_attrs = {axis = -1 : i64, new_axis = 1 : i64}} : (!onnx.seq<tensor<3xf32>>) -> tensor<3x2xf32>
  return %c : tensor<3x2xf32>
}

// -----

// Only the length of a split taken: the Split goes too.
// CHECK-LABEL: func.func @length_only
// CHECK-NOT:     onnx.node
// CHECK:         arith.constant dense<3> : tensor<i64>
func.func @length_only(%x: tensor<?xf32>, %splits: tensor<3xi64>) -> tensor<i64> {
  %s = onnx.node "SplitToSequence"(%x, %splits) {opset = 17 : i64} : (tensor<?xf32>, tensor<3xi64>) -> !onnx.seq<tensor<?xf32>>
  %n = onnx.node "SequenceLength"(%s) {opset = 17 : i64} : (!onnx.seq<tensor<?xf32>>) -> tensor<i64>
  return %n : tensor<i64>
}

// -----

func.func @past_the_end(%x: tensor<2xf32>) -> tensor<2xf32> {
  %two = arith.constant dense<2> : tensor<i64>
  %s = onnx.node "SequenceConstruct"(%x, %x) {opset = 17 : i64} : (tensor<2xf32>, tensor<2xf32>) -> !onnx.seq<tensor<2xf32>>
  // expected-error @+1 {{node (SequenceAt, opset 17): position 2 is outside a sequence of 2}}
  %at = onnx.node "SequenceAt"(%s, %two) {opset = 17 : i64} : (!onnx.seq<tensor<2xf32>>, tensor<i64>) -> tensor<2xf32>
  return %at : tensor<2xf32>
}

// -----

func.func @unknown_count(%x: tensor<?xf32>) -> tensor<i64> {
  // expected-error @+1 {{node (SplitToSequence, opset 17): the number of chunks must be known: split along a dim of static size or by a split of static length}}
  %s = onnx.node "SplitToSequence"(%x) {opset = 17 : i64} : (tensor<?xf32>) -> !onnx.seq<tensor<?xf32>>
  %n = onnx.node "SequenceLength"(%s) {opset = 17 : i64} : (!onnx.seq<tensor<?xf32>>) -> tensor<i64>
  return %n : tensor<i64>
}

// -----

func.func @empty_concat() -> tensor<2xf32> {
  %s = onnx.node "SequenceEmpty"() {opset = 17 : i64} : () -> !onnx.seq<tensor<2xf32>>
  // expected-error @+1 {{node (ConcatFromSequence, opset 17): it concatenates an empty sequence}}
  %c = onnx.node "ConcatFromSequence"(%s) {opset = 17 : i64, onnx_attrs = {axis = 0 : i64}} : (!onnx.seq<tensor<2xf32>>) -> tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

func.func @other_reader(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = onnx.node "SequenceConstruct"(%x) {opset = 17 : i64} : (tensor<2xf32>) -> !onnx.seq<tensor<2xf32>>
  // expected-error @+1 {{node (SequenceMap, opset 17): it reads or makes a sequence, which Kiln supports only through SequenceEmpty, SequenceConstruct, SequenceInsert, SequenceErase, SequenceAt, SequenceLength, SplitToSequence, ConcatFromSequence and Identity}}
  %m = onnx.node "SequenceMap"(%s) {opset = 17 : i64} : (!onnx.seq<tensor<2xf32>>) -> !onnx.seq<tensor<2xf32>>
  %at = onnx.node "SequenceAt"(%m, %x) {opset = 17 : i64} : (!onnx.seq<tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %at : tensor<2xf32>
}
