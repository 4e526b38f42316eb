// RUN: kiln-opt %s --split-input-file --kiln-namespace-host-functions | FileCheck %s

// A program may name its functions like the symbols of the module itself
// or of the C library: every host function with a body moves to
// kiln.fn.NAME, calls follow, and public ones keep their name for the
// runtime.
// CHECK-LABEL: module
// CHECK: func.func @kiln.fn.malloc(%{{.+}}) -> tensor<4xf32> attributes {kiln.export_name = "malloc"}
// CHECK: func.func @kiln.fn.kiln_entry_0(%{{.+}}) -> tensor<4xf32> attributes {kiln.export_name = "kiln_entry_0"}
// CHECK: call @kiln.fn.malloc(
// CHECK: func.func private @kiln.fn.helper(
// CHECK-NOT: kiln.export_name
// CHECK: func.func private @external(
func.func @malloc(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @kiln_entry_0(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @malloc(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %s = call @helper(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @external(tensor<4xf32>) -> tensor<4xf32>

// -----

// A name that is taken already gets a suffix; external declarations
// keep theirs.
// CHECK-LABEL: module
// CHECK: func.func @kiln.fn.f.1() attributes {kiln.export_name = "f"}
// CHECK: func.func @kiln.fn.kiln.fn.f.1() attributes {kiln.export_name = "kiln.fn.f"}
// CHECK: func.func private @kiln.fn.kiln.fn.f()
func.func @f() {
  return
}
func.func @kiln.fn.f() {
  return
}
func.func private @kiln.fn.kiln.fn.f()
