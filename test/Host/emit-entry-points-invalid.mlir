// RUN: kiln-opt %s --kiln-emit-entry-points -verify-diagnostics

// expected-error @+1 {{has no C interface to export}}
llvm.func @orphan(%ctx: !llvm.ptr) attributes {kiln.signature = () -> ()} {
  llvm.return
}
