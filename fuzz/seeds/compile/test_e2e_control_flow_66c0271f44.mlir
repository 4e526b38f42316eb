// Host control flow around dispatches, and ops whose operands are computed
// at run time where other compilers want constants.

// A loop whose trip count is an input: each iteration runs a dispatch on
// the carried tensor, which gets a new buffer every time round.
func.func @while_loop(%n: tensor<i32>, %v: tensor<4x33xf32>) -> tensor<4x33xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %r:2 = tosa.while_loop (%i = %zero, %x = %v) : (tensor<i32>, tensor<4x33xf32>) -> (tensor<i32>, tensor<4x33xf32>) {
    %more = tosa.greater %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
    tosa.yield %more : tensor<i1>
  } do {
  ^bb0(%i: tensor<i32>, %x: tensor<4x33xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %next = tosa.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %scaled = tosa.mul %x, %half, %shift : (tensor<4x33xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x33xf32>
    %onef = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %y = tosa.add %scaled, %onef : (tensor<4x33xf32>, tensor<1x1xf32>) -> tensor<4x33xf32>
    tosa.yield %next, %y : tensor<i32>, tensor<4x33xf32>
  }
  return %r#1 : tensor<4x33xf32>
}

// A branch on an input.
func.func @cond_if(%p: tensor<i1>, %x: tensor<7x5xf32>) -> tensor<7x5xf32> {
  %r = tosa.cond_if %p (%a = %x) : tensor<i1> (tensor<7x5xf32>) -> tensor<7x5xf32> {
  ^bb0(%a: tensor<7x5xf32>):
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %sq = tosa.mul %a, %a, %shift : (tensor<7x5xf32>, tensor<7x5xf32>, tensor<1xi8>) -> tensor<7x5xf32>
    tosa.yield %sq : tensor<7x5xf32>
  } else {
  ^bb0(%a: tensor<7x5xf32>):
    %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %d = tosa.sub %a, %one : (tensor<7x5xf32>, tensor<1x1xf32>) -> tensor<7x5xf32>
    tosa.yield %d : tensor<7x5xf32>
  }
  return %r : tensor<7x5xf32>
}

// A lookup table computed by the program (TOSA validation would insist on
// a constant one).
func.func @computed_table(%x: tensor<300xi8>) -> tensor<300xi8> {
  %init = tensor.empty() : tensor<256xi8>
  %table = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%init : tensor<256xi8>) {
  ^bb0(%o: i8):
    %i = linalg.index 0 : index
    %i32 = arith.index_cast %i : index to i32
    %c3 = arith.constant 3 : i32
    %t = arith.muli %i32, %c3 : i32
    %t8 = arith.trunci %t : i32 to i8
    linalg.yield %t8 : i8
  } -> tensor<256xi8>
  %r = tosa.table %x, %table : (tensor<300xi8>, tensor<256xi8>) -> tensor<300xi8>
  return %r : tensor<300xi8>
}
