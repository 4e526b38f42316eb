// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-lower-variant)))' -verify-diagnostics

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

// -----

// What the backend cannot lower is reported where it is, not left to fail
// translation without a location (0-d vectors, here).
kiln.executable private @scan {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @k() {
        %a = kiln.dispatch.binding 0 readonly : memref<4xf32>
        %o = kiln.dispatch.binding 1 : memref<4xf32>
        %c0 = arith.constant 0 : index
        // expected-error @+1 {{values of type 'vector<f32>' could not be lowered to the LLVM dialect by the llvm-cpu backend}}
        %z = arith.constant dense<0.0> : vector<f32>
        %pad = arith.constant 0.0 : f32
        %v = vector.transfer_read %a[%c0], %pad : memref<4xf32>, vector<4xf32>
        %s:2 = vector.scan <add>, %v, %z {inclusive = true, reduction_dim = 0} : vector<4xf32>, vector<f32>
        vector.transfer_write %s#0, %o[%c0] : vector<4xf32>, memref<4xf32>
        return
      }
    }
  }
}
