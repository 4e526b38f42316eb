// RUN: kiln-opt %s --split-input-file --kiln-verify-input-legality -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @legal
func.func @legal(%a: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.if %c -> tensor<4xf32> {
    %e = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    %p = ub.poison : tensor<4xf32>
    scf.yield %p : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @memref_input() -> memref<4xf32> {
  // expected-error @+2 {{'memref.alloc' is not supported by Kiln: no input conversion turns it into linalg on tensors}}
  // expected-note @+1 {{Kiln compiles func, arith, math, linalg, tensor and scf ops (and tosa, which it converts); rewrite the op with those, or activate a plugin that converts the 'memref' dialect}}
  %0 = memref.alloc() : memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

func.func @vector_input(%v: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+2 {{'vector.broadcast' is not supported by Kiln}}
  // expected-note @+1 {{'vector' dialect}}
  %0 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  %1 = vector.extract %0[0] : vector<4xf32> from vector<2x4xf32>
  // expected-error @-1 {{'vector.extract' is not supported by Kiln}}
  // expected-note @-2 {{'vector' dialect}}
  return %1 : vector<4xf32>
}

// -----

// A TOSA op that TOSA-to-linalg does not convert.
func.func @tosa_custom(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tosa.custom' is not supported by Kiln}}
  // expected-note @+1 {{activate a plugin that converts the 'tosa' dialect}}
  %0 = tosa.custom %a {domain_name = "acme", operator_name = "warp", implementation_attrs = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A constant tensor.dim index outside the rank: undefined, so refused.
func.func @dim_out_of_range(%a: tensor<?x4xf32>) -> index {
  %c = arith.constant -1 : index
  // expected-error @+1 {{dimension index -1 is out of range for 'tensor<?x4xf32>' (rank 2)}}
  %d = tensor.dim %a, %c : tensor<?x4xf32>
  return %d : index
}

// -----

func.func @dim_past_rank(%a: tensor<?x4xf32>) -> index {
  %c = arith.constant 2 : index
  // expected-error @+1 {{dimension index 2 is out of range for 'tensor<?x4xf32>' (rank 2)}}
  %d = tensor.dim %a, %c : tensor<?x4xf32>
  return %d : index
}

// -----

// A nested module: its functions would never be compiled.
module {
  // expected-error @+1 {{nested modules are not supported by Kiln: put the functions in the top module}}
  module @inner {
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      return %a : tensor<4xf32>
    }
  }
}
