// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-verify-lowering-configs)))' | FileCheck %s

// Every lowering config of a configured variant goes through one check,
// whoever wrote it.

// A register tile written in the input program is held to the limits a
// tuning spec's is: 10^9 elements would take minutes and gigabytes to
// unroll.
kiln.executable private @input_register_tile {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+64bit,+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x64xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
        %o = kiln.dispatch.binding 1 : memref<64x64xf32>
        %to = bufferization.to_tensor %o restrict writable : memref<64x64xf32> to tensor<64x64xf32>
        // expected-error @+2 {{its register tile holds 1000000000 elements, more than vector registers hold (at most 4096)}}
        // expected-note @+1 {{the config was written in the input program}}
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 64, 0], cache = [64, 64, 64], register = [1000, 1000, 1000]>} ins(%ta, %ta : tensor<64x64xf32>, tensor<64x64xf32>) outs(%to : tensor<64x64xf32>) -> tensor<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Sizes whose product does not fit in 64 bits.
kiln.executable private @overflowing_register_tile {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+64bit,+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x64xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
        %o = kiln.dispatch.binding 1 : memref<64x64xf32>
        %to = bufferization.to_tensor %o restrict writable : memref<64x64xf32> to tensor<64x64xf32>
        // expected-error @+2 {{its register tile holds more than 2^63 elements}}
        // expected-note @+1 {{the config was written in the input program}}
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", register = [2147483647, 2147483647, 2147483647]>} ins(%ta, %ta : tensor<64x64xf32>, tensor<64x64xf32>) outs(%to : tensor<64x64xf32>) -> tensor<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// The vector shape is checked on its own, not only the register tile.
kiln.executable private @vector_shape {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+64bit,+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x64xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
        %o = kiln.dispatch.binding 1 : memref<64x64xf32>
        %to = bufferization.to_tensor %o restrict writable : memref<64x64xf32> to tensor<64x64xf32>
        // expected-error @+2 {{its vector shape holds 262144 elements}}
        // expected-note @+1 {{the config was written in the input program}}
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", register = [8, 32, 1], vector = [64, 64, 64]>} ins(%ta, %ta : tensor<64x64xf32>, tensor<64x64xf32>) outs(%to : tensor<64x64xf32>) -> tensor<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Vectors smaller than the register tile cannot vectorize it.
kiln.executable private @vector_below_register {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+64bit,+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x64xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
        %o = kiln.dispatch.binding 1 : memref<64x64xf32>
        %to = bufferization.to_tensor %o restrict writable : memref<64x64xf32> to tensor<64x64xf32>
        // expected-error @+2 {{its vector size 16 for loop 1 is smaller than the register tile's 32}}
        // expected-note @+1 {{the config was written in the input program}}
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", register = [8, 32, 1], vector = [8, 16, 1]>} ins(%ta, %ta : tensor<64x64xf32>, tensor<64x64xf32>) outs(%to : tensor<64x64xf32>) -> tensor<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A config a spec set names the spec in the note.
kiln.executable private @from_spec {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+64bit,+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x64xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
        %o = kiln.dispatch.binding 1 : memref<64x64xf32>
        %to = bufferization.to_tensor %o restrict writable : memref<64x64xf32> to tensor<64x64xf32>
        // expected-error @+2 {{pipeline 'cpu-vectorize-everything' is not one the llvm-cpu backend has}}
        // expected-note @+1 {{the config was set by the tuning spec my_spec.mlir at my_spec.mlir:4:5}}
        %mm = linalg.matmul {kiln.configured_by = {location = "my_spec.mlir:4:5", sequence = "match", spec = "my_spec.mlir"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-vectorize-everything">} ins(%ta, %ta : tensor<64x64xf32>, tensor<64x64xf32>) outs(%to : tensor<64x64xf32>) -> tensor<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Vectors wider than the register tile are masked: fine.
// CHECK-LABEL: kiln.executable private @valid
// CHECK: linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", register = [8, 32, 1], vector = [8, 64, 1]>}
kiln.executable private @valid {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+64bit,+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x64xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x64xf32> to tensor<64x64xf32>
        %o = kiln.dispatch.binding 1 : memref<64x64xf32>
        %to = bufferization.to_tensor %o restrict writable : memref<64x64xf32> to tensor<64x64xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", register = [8, 32, 1], vector = [8, 64, 1]>} ins(%ta, %ta : tensor<64x64xf32>, tensor<64x64xf32>) outs(%to : tensor<64x64xf32>) -> tensor<64x64xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<64x64xf32>, memref<64x64xf32>) -> ()
        return
      }
    }
  }
}
