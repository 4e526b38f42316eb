// RUN: kiln-opt %s --split-input-file --kiln-emit-entry-points -verify-diagnostics

// expected-error @+1 {{has no C interface to export}}
llvm.func @orphan(%ctx: !llvm.ptr) attributes {kiln.signature = () -> ()} {
  llvm.return
}

// -----

// Names that do not match the signature's count.
// expected-error @+1 {{'kiln.input_names' names 1 values; the function has 2}}
llvm.func @miscounted(%ctx: !llvm.ptr) attributes {kiln.signature = (tensor<4xf32>, tensor<4xf32>) -> (), kiln.input_names = ["x"]} {
  llvm.return
}
llvm.func @_mlir_ciface_miscounted(%ctx: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr) attributes {kiln.signature = (tensor<4xf32>, tensor<4xf32>) -> ()} {
  llvm.return
}
