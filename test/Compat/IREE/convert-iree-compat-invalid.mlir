// RUN: kiln-opt %s --split-input-file --kiln-convert-iree-compat -verify-diagnostics

func.func @reshaping_bitcast(%a: tensor<4x2xi8>) -> tensor<2x8xi4> {
  // expected-error @+1 {{bitcast from 'tensor<4x2xi8>' to 'tensor<2x8xi4>' is not supported: Kiln reinterprets elements of one width, or packs and unpacks static tensors along the innermost dimension}}
  %b = flow.tensor.bitcast %a : tensor<4x2xi8> -> tensor<2x8xi4>
  return %b : tensor<2x8xi4>
}

// -----

func.func @dynamic_packing(%a: tensor<?xi8>, %n: index, %m: index) -> tensor<?xi4> {
  // expected-error @+1 {{bitcast from 'tensor<?xi8>' to 'tensor<?xi4>' is not supported}}
  %b = flow.tensor.bitcast %a : tensor<?xi8>{%n} -> tensor<?xi4>{%m}
  return %b : tensor<?xi4>
}

// -----

func.func @complex(%a: tensor<2xcomplex<f32>>) {
  // expected-error @+1 {{Kiln cannot compare values of type 'tensor<2xcomplex<f32>>'}}
  check.expect_eq(%a, %a) : tensor<2xcomplex<f32>>
  return
}

// -----

func.func @wide(%a: tensor<2xi128>) {
  // expected-error @+1 {{Kiln cannot compare values of type 'tensor<2xi128>'}}
  check.expect_eq(%a, %a) : tensor<2xi128>
  return
}
