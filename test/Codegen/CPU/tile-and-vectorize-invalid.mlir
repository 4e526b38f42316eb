// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(builtin.module(func.func(kiln-cpu-tile-and-vectorize)))))' -verify-diagnostics

// A tuning spec may name any pipeline; codegen says which it does not have.
kiln.executable private @unknown_pipeline {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<4x4xf32>
        %ta = bufferization.to_tensor %a restrict : memref<4x4xf32> to tensor<4x4xf32>
        %e = tensor.empty() : tensor<4x4xf32>
        // expected-error @+1 {{lowering config names pipeline 'gpu-mma', which the llvm-cpu backend does not have (it has cpu-contraction, cpu-convolution, cpu-elementwise, cpu-reduction and cpu-default)}}
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "gpu-mma", workgroup = [4, 4, 0]>} ins(%ta, %ta : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
        %o = kiln.dispatch.binding 1 : memref<4x4xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<4x4xf32>, memref<4x4xf32>) -> ()
        return
      }
    }
  }
}
