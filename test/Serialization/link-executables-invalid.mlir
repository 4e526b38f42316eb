// RUN: kiln-opt %s --split-input-file --kiln-link-executables -verify-diagnostics

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

// -----

llvm.func @expf(f64) -> f64
kiln.executable private @clash {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    builtin.module {
      // expected-error @+1 {{declares @expf with another type than the host does}}
      llvm.func @expf(f32) -> f32
    }
  }
}

// -----

llvm.func @__kiln_kernel_twice_k(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
  llvm.return
}
kiln.executable private @twice {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    kiln.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      // expected-error @+1 {{@__kiln_kernel_twice_k is already defined in the module}}
      llvm.func @k(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
        llvm.return
      }
    }
  }
}

// -----

kiln.executable private @missing_object {
  // expected-error-re @+1 {{attaches an object file that cannot be linked: object file '/nonexistent/kernels.o' cannot be read: {{.*}}}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) attributes {objects = [#kiln.object<"/nonexistent/kernels.o">]} {
    builtin.module {
    }
  }
}
