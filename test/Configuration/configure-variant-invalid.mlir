// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-configure-variant)))' -verify-diagnostics

// expected-error @+2 {{unknown target backend 'gpu'; known backends: llvm-cpu}}
kiln.executable private @unknown_backend {
  kiln.executable.variant public @gpu target(#kiln.target<"gpu">) {
  }
}
