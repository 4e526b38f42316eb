// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln-serialize-executables))' -verify-diagnostics

kiln.executable private @gpu {
  // expected-error @+1 {{targets 'vulkan', which Kiln cannot write into a module; only llvm-cpu variants are serialized}}
  kiln.executable.variant public @vulkan target(#kiln.target<"vulkan">) {
  }
}

// -----

// expected-error @+1 {{has 2 llvm-cpu variants; serialization needs exactly one}}
kiln.executable private @two {
  kiln.executable.variant public @a target(#kiln.target<"llvm-cpu", {cpu = "haswell"}>) {
  }
  kiln.executable.variant public @b target(#kiln.target<"llvm-cpu", {cpu = "znver4"}>) {
  }
}

// -----

kiln.executable private @empty {
  // expected-error @+1 {{has no module to link}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
  }
}

// -----

kiln.executable private @not_lowered {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    builtin.module {
      // expected-error @+1 {{is not in the LLVM dialect; run the executable-codegen phase before serializing}}
      func.func @k() {
        return
      }
    }
  }
}

