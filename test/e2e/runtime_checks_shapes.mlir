// RUN: %e2e %s

// Sizes that ops require to agree, unknown at compile time, are checked
// when the call begins (kiln-check-dynamic-shapes): a call with sizes that
// disagree ends with an error naming the op, the operands and both sizes,
// instead of reading past a buffer or computing over the wrong size.

// Elementwise: both operands must have the result's size.
// CASE: add
// INPUT: x = rand(8)
// INPUT: y = rand(8)
// REFERENCE: x + y
// CASE: add
// INPUT: x = rand(8)
// INPUT: y = rand(1)
// ERROR: 'linalg.add': dimension 0 of input 1 is 1, but dimension 0 of input 0 is 8; they must be equal
// CASE: add
// INPUT: x = rand(1)
// INPUT: y = rand(8)
// ERROR: dimension 0 of input 1 is 8, but dimension 0 of input 0 is 1; they must be equal
// CASE: add
// INPUT: x = rand(5000000)
// INPUT: y = rand(1)
// ERROR: dimension 0 of input 1 is 1, but dimension 0 of input 0 is 5000000
func.func @add(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A matmul whose K differs between its operands.
// CASE: matmul
// INPUT: a = rand(4, 6)
// INPUT: b = rand(6, 3)
// REFERENCE: a @ b
// CASE: matmul
// INPUT: a = rand(4, 6)
// INPUT: b = rand(7, 3)
// ERROR: 'linalg.matmul': dimension 0 of input 1 is 7, but dimension 1 of input 0 is 6; they must be equal
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A static operand meets a dynamic one: the dynamic size must be 4 (the
// input phase casts the operand to tensor<4xf32>, which is checked).
// CASE: mixed
// INPUT: x = rand(3)
// INPUT: y = rand(4)
// ERROR: 'tensor.cast': dimension 0 of input 0 is 3, but the program needs 4 there
func.func @mixed(%x: tensor<?xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.mul ins(%x, %y : tensor<?xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A cast to a static size.
// CASE: cast
// INPUT: x = rand(5)
// ERROR: 'tensor.cast': dimension 0 of input 0 is 5, but the program needs 6 there
func.func @cast(%x: tensor<?xf32>) -> tensor<6xf32> {
  %r = tensor.cast %x : tensor<?xf32> to tensor<6xf32>
  return %r : tensor<6xf32>
}

// A reshape to a shape read from an input: the element count must stay.
// CASE: reshape
// INPUT: x = rand(6)
// INPUT: shape = np.array([2, 3], dtype=np.int64)
// REFERENCE: x.reshape(2, 3)
// CASE: reshape
// INPUT: x = rand(6)
// INPUT: shape = np.array([4, 4], dtype=np.int64)
// ERROR: 'tensor.reshape': a reshape of 6 elements into a shape of 16 elements
// CASE: reshape
// INPUT: x = rand(0)
// INPUT: shape = np.array([2**32, 2**32], dtype=np.int64)
// ERROR: a reshape of 0 elements into a shape of 0 elements (or of a negative size or one past 2^63)
// CASE: reshape
// INPUT: x = rand(6)
// INPUT: shape = np.array([-2, -3], dtype=np.int64)
// ERROR: a reshape of 6 elements into a shape of 6 elements (or of a negative size
func.func @reshape(%x: tensor<?xf32>, %shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = tensor.reshape %x(%shape) : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A slice at an offset and of a size read from inputs.
// CASE: slice
// INPUT: x = rand(10)
// INPUT: at = np.array(2, dtype=np.int64)
// INPUT: size = np.array(5, dtype=np.int64)
// REFERENCE: x[2:7]
// CASE: slice
// INPUT: x = rand(10)
// INPUT: at = np.array(7, dtype=np.int64)
// INPUT: size = np.array(5, dtype=np.int64)
// ERROR: 'tensor.extract_slice': a slice of 5 elements from offset 7 with step 1 along dimension 0 of input 0, whose size is 10
// CASE: slice
// INPUT: x = rand(10)
// INPUT: at = np.array(-1, dtype=np.int64)
// INPUT: size = np.array(2, dtype=np.int64)
// ERROR: a slice of 2 elements from offset -1 with step 1
func.func @slice(%x: tensor<?xf32>, %at: tensor<i64>, %size: tensor<i64>) -> tensor<?xf32> {
  %a = tensor.extract %at[] : tensor<i64>
  %s = tensor.extract %size[] : tensor<i64>
  %ai = arith.index_cast %a : i64 to index
  %si = arith.index_cast %s : i64 to index
  %r = tensor.extract_slice %x[%ai] [%si] [1] : tensor<?xf32> to tensor<?xf32>
  return %r : tensor<?xf32>
}

// A host read at an index from an input.
// CASE: element
// INPUT: x = rand(4)
// INPUT: at = np.array(4, dtype=np.int64)
// ERROR: 'tensor.extract': a read at index 4 of dimension 0 of input 0, whose size is 4
func.func @element(%x: tensor<?xf32>, %at: tensor<i64>) -> tensor<f32> {
  %a = tensor.extract %at[] : tensor<i64>
  %ai = arith.index_cast %a : i64 to index
  %v = tensor.extract %x[%ai] : tensor<?xf32>
  %r = tensor.from_elements %v : tensor<f32>
  return %r : tensor<f32>
}

// A concatenation's other dimensions must agree.
// CASE: concat
// INPUT: x = rand(2, 3)
// INPUT: y = rand(4, 3)
// REFERENCE: np.concatenate([x, y])
// CASE: concat
// INPUT: x = rand(2, 3)
// INPUT: y = rand(4, 5)
// ERROR: 'tensor.concat': dimension 1 of input 1 is 5, but dimension 1 of input 0 is 3; a concatenation along dimension 0 needs them equal
func.func @concat(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = tensor.concat dim(0) %x, %y : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A convolution's window must fit in its (dynamic) input.
// CASE: conv
// INPUT: x = rand(1, 2, 3, 1)
// INPUT: w = rand(3, 3, 1, 1)
// ERROR: 'linalg.conv_2d_nhwc_hwcf': dimension 1 of input 0 is 2, but the op reads it up to index 2
func.func @conv(%x: tensor<1x?x?x1xf32>, %w: tensor<3x3x1x1xf32>) -> tensor<1x1x1x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x1x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x?x?x1xf32>, tensor<3x3x1x1xf32>) outs(%f : tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  return %r : tensor<1x1x1x1xf32>
}

// A program's own assertion, with its values in the message: {N} is
// values[N]; other braces are text.
// CASE: assertion
// INPUT: x = rand(3)
// ERROR: runtime_checks_shapes.mlir:175:3: x has 3 elements, not 4
// CASE: assertion_message
// INPUT: x = rand(3)
// ERROR: x has 3 elements, not 4 {} {x} -1 1 {
func.func @assertion(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %ok = arith.cmpi eq, %n, %c4 : index
  kiln.assert %ok, "x has {0} elements, not {1}" (%n, %c4 : index, index)
  return %x : tensor<?xf32>
}
func.func @assertion_message(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m1 = arith.constant -1 : i32
  %t = arith.constant true
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %ok = arith.cmpi eq, %n, %c4 : index
  kiln.assert %ok, "x has {0} elements, not {1} {} {x} {2} {3} {" (%n, %c4, %m1, %t : index, index, i32, i1)
  return %x : tensor<?xf32>
}
