// RUN: not kiln-compile %s --compile-to=host 2>&1 | FileCheck %s

// One name, two signatures: no extension can provide both.
// CHECK: error: 'kiln.call_extern' op calls 'demo.scale' as (tensor<4xf64>)->(tensor<4xf64>), and the module calls it elsewhere as (tensor<4xf32>)->(tensor<4xf32>); a runtime extension provides one signature per name
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xf32>, tensor<4xf64>) {
  %a = kiln.call_extern "demo.scale"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = kiln.call_extern "demo.scale"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  return %a, %b : tensor<4xf32>, tensor<4xf64>
}
