// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln-serialize-executables))' -verify-diagnostics

// Serialization is the target backend's: a backend Kiln does not have
// cannot serialize.
kiln.executable private @gpu {
  // expected-error @+1 {{unknown target backend 'vulkan'; known backends: llvm-cpu}}
  kiln.executable.variant public @vulkan target(#kiln.target<"vulkan">) {
  }
}

// -----

kiln.executable private @empty {
  // expected-error @+1 {{variant @empty::@llvm_cpu has no module}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
  }
}

// -----

kiln.executable private @not_lowered {
  // expected-error @+1 {{variant @not_lowered::@llvm_cpu holds 'func.func', which is not in the LLVM dialect; run the executable-codegen phase before serializing}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    builtin.module {
      func.func @k() {
        return
      }
    }
  }
}

// -----

kiln.executable private @no_kernel {
  // expected-error @+1 {{export @k of @no_kernel::@llvm_cpu has no kernel to link}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    kiln.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      llvm.func @k(!llvm.ptr, i32, i32, i32, !llvm.ptr)
    }
  }
}
