// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-lower-variant)))' -verify-diagnostics

kiln.executable private @unknown_backend {
  // expected-error @+1 {{unknown target backend 'vulkan'; known backends: llvm-cpu}}
  kiln.executable.variant public @vulkan target(#kiln.target<"vulkan">) {
    builtin.module {
      func.func @k() {
        return
      }
    }
  }
}
