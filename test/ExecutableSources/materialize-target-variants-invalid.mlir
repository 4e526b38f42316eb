// RUN: kiln-opt %s --split-input-file --kiln-materialize-target-variants=targets=gpu -verify-diagnostics
// RUN: not kiln-opt %s --kiln-materialize-target-variants=cpu=pentium9000 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not kiln-opt %s --kiln-materialize-target-variants=cpu-features=avx2 2>&1 | FileCheck %s --check-prefix=FEATURE

// expected-error @+1 {{unknown target backend 'gpu'; known backends: llvm-cpu}}
module {
}

// CPU: error: unknown CPU 'pentium9000' for the llvm-cpu target; use 'host' or an LLVM x86-64 CPU name
// FEATURE: error: malformed CPU feature 'avx2'; write features as +name or -name, comma-separated
