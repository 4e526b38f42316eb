// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-configure-variant)))' | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-cpu-select-lowering-config)))' | FileCheck %s

// An AVX-512 CPU: 32 vector registers of 16 floats give an 8x32 register
// tile. Every dimension is at least 512 and L2 is 1 MiB: 256-row
// workgroups over 512x128 blocks of B (a quarter of L2); 1000 has no tile
// that is a multiple of 32 and divides it, so the last tile is partial.
// CHECK-LABEL: kiln.executable private @matmul_avx512
// CHECK: linalg.matmul {kiln.configured_by = {heuristic = "cpu-contraction"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [256, 128, 0], cache = [256, 128, 512], register = [8, 32, 1], vector = [8, 32, 1]>}
kiln.executable private @matmul_avx512 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<1024x512xf32>
        %ta = bufferization.to_tensor %a restrict : memref<1024x512xf32> to tensor<1024x512xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<512x1000xf32>
        %tb = bufferization.to_tensor %b restrict : memref<512x1000xf32> to tensor<512x1000xf32>
        %e = tensor.empty() : tensor<1024x1000xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1000xf32>) -> tensor<1024x1000xf32>
        %mm = linalg.matmul ins(%ta, %tb : tensor<1024x512xf32>, tensor<512x1000xf32>) outs(%f : tensor<1024x1000xf32>) -> tensor<1024x1000xf32>
        %o = kiln.dispatch.binding 2 : memref<1024x1000xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<1024x1000xf32>, memref<1024x1000xf32>) -> ()
        return
      }
    }
  }
}

// -----

// B laid out in panels of 16 columns (kiln-pack-contraction-weights), on
// AVX2: a workgroup takes four panels, each register tile one, K in
// blocks of 512. The 128 rows count all 3072 columns as work: two row
// tiles of 66 and 62, not 60 + 60 + 8.
// CHECK-LABEL: kiln.executable private @matmul_panels_avx2
// CHECK: linalg.generic {{.+}} attrs =  {kiln.configured_by = {heuristic = "cpu-contraction"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [1, 66, 4, 16, 0], cache = [1, 66, 4, 16, 512], register = [1, 6, 1, 16, 1], vector = [1, 6, 1, 16, 1]>}
kiln.executable private @matmul_panels_avx2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "haswell", cpu_features = "+avx,+avx2,+fma", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<1x128x768xf32>
        %ta = bufferization.to_tensor %a restrict : memref<1x128x768xf32> to tensor<1x128x768xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<192x768x16xf32>
        %tb = bufferization.to_tensor %b restrict : memref<192x768x16xf32> to tensor<192x768x16xf32>
        %e = tensor.empty() : tensor<1x128x192x16xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x192x16xf32>) -> tensor<1x128x192x16xf32>
        %mm = linalg.generic {indexing_maps = [affine_map<(b, m, no, ni, k) -> (b, m, k)>, affine_map<(b, m, no, ni, k) -> (no, k, ni)>, affine_map<(b, m, no, ni, k) -> (b, m, no, ni)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
            ins(%ta, %tb : tensor<1x128x768xf32>, tensor<192x768x16xf32>) outs(%f : tensor<1x128x192x16xf32>) {
        ^bb0(%x: f32, %y: f32, %acc: f32):
          %p = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %p : f32
          linalg.yield %s : f32
        } -> tensor<1x128x192x16xf32>
        %o = kiln.dispatch.binding 2 : memref<1x128x192x16xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<1x128x192x16xf32>, memref<1x128x192x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Below 512 in a dimension (M = 384): 64-row workgroups over 256x256
// blocks of B (half of L2), more workgroups for the threads.
// CHECK-LABEL: kiln.executable private @matmul_avx512_mid
// CHECK: linalg.matmul {kiln.configured_by = {heuristic = "cpu-contraction"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0], cache = [64, 256, 256], register = [8, 32, 1], vector = [8, 32, 1]>}
kiln.executable private @matmul_avx512_mid {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<384x1024xf32>
        %ta = bufferization.to_tensor %a restrict : memref<384x1024xf32> to tensor<384x1024xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<1024x1024xf32>
        %tb = bufferization.to_tensor %b restrict : memref<1024x1024xf32> to tensor<1024x1024xf32>
        %e = tensor.empty() : tensor<384x1024xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<384x1024xf32>) -> tensor<384x1024xf32>
        %mm = linalg.matmul ins(%ta, %tb : tensor<384x1024xf32>, tensor<1024x1024xf32>) outs(%f : tensor<384x1024xf32>) -> tensor<384x1024xf32>
        %o = kiln.dispatch.binding 2 : memref<384x1024xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<384x1024xf32>, memref<384x1024xf32>) -> ()
        return
      }
    }
  }
}

// -----

// An AVX2 CPU: 16 registers of 8 floats give a 6x16 register tile; the
// 1024 rows take as many row tiles as 64-row ones would (16), each 11
// register tiles high.
// CHECK-LABEL: kiln.executable private @matmul_avx2
// CHECK: linalg.matmul {kiln.configured_by = {heuristic = "cpu-contraction"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [66, 128, 0], cache = [66, 128, 256], register = [6, 16, 1], vector = [6, 16, 1]>}
kiln.executable private @matmul_avx2 {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "haswell", cpu_features = "+avx,+avx2,+fma", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<1024x512xf32>
        %ta = bufferization.to_tensor %a restrict : memref<1024x512xf32> to tensor<1024x512xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<512x1000xf32>
        %tb = bufferization.to_tensor %b restrict : memref<512x1000xf32> to tensor<512x1000xf32>
        %e = tensor.empty() : tensor<1024x1000xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1000xf32>) -> tensor<1024x1000xf32>
        %mm = linalg.matmul ins(%ta, %tb : tensor<1024x512xf32>, tensor<512x1000xf32>) outs(%f : tensor<1024x1000xf32>) -> tensor<1024x1000xf32>
        %o = kiln.dispatch.binding 2 : memref<1024x1000xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<1024x1000xf32>, memref<1024x1000xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Elementwise ops, reductions, convolutions and everything else; a config that is
// already there (from a tuning spec) stays.
// CHECK-LABEL: kiln.executable private @others
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [8, 2048], register = [1, 16], vector = [1, 16]>
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [64, 256], cache = [16, 16], register = [1, 16], vector = [1, 16]>
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [8, 2048], register = [1, 16], vector = [1, 16]>
// CHECK: linalg.generic {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [16, 0], register = [1, 64], vector = [1, 64]>
// CHECK: linalg.softmax {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-reduction", workgroup = [16, 0], cache = [1, 0], register = [1, 64], vector = [1, 64]>}
// CHECK: linalg.softmax {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-default", workgroup = [8, 0, 8]>}
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-convolution", workgroup = [1, 1, 8, 8, 0, 0, 0], cache = [1, 1, 8, 8, 0, 0, 0], register = [1, 1, 8, 8, 1, 1, 1], vector = [1, 1, 8, 8, 1, 1, 1]>
// CHECK: linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "tuned", workgroup = [1, 1, 0]>}
kiln.executable private @others {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    builtin.module {
      func.func @elementwise() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x2048xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x2048xf32> to tensor<64x2048xf32>
        %e = tensor.empty() : tensor<64x2048xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
            ins(%ta : tensor<64x2048xf32>) outs(%e : tensor<64x2048xf32>) {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32
          linalg.yield %y : f32
        } -> tensor<64x2048xf32>
        %o = kiln.dispatch.binding 1 : memref<64x2048xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<64x2048xf32>, memref<64x2048xf32>) -> ()
        return
      }
      // A transpose: 16x16 blocks.
      func.func @transpose() {
        %a = kiln.dispatch.binding 0 readonly : memref<2048x1024xf32>
        %ta = bufferization.to_tensor %a restrict : memref<2048x1024xf32> to tensor<2048x1024xf32>
        %e = tensor.empty() : tensor<1024x2048xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
            ins(%ta : tensor<2048x1024xf32>) outs(%e : tensor<1024x2048xf32>) {
        ^bb0(%x: f32, %o: f32):
          linalg.yield %x : f32
        } -> tensor<1024x2048xf32>
        %o = kiln.dispatch.binding 1 : memref<1024x2048xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1024x2048xf32>, memref<1024x2048xf32>) -> ()
        return
      }
      // A bias along rows is a broadcast, no transpose.
      func.func @row_bias() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x2048xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x2048xf32> to tensor<64x2048xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<64xf32>
        %tb = bufferization.to_tensor %b restrict : memref<64xf32> to tensor<64xf32>
        %e = tensor.empty() : tensor<64x2048xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
            ins(%ta, %tb : tensor<64x2048xf32>, tensor<64xf32>) outs(%e : tensor<64x2048xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        } -> tensor<64x2048xf32>
        %o = kiln.dispatch.binding 2 : memref<64x2048xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<64x2048xf32>, memref<64x2048xf32>) -> ()
        return
      }
      func.func @reduction() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<256x1000xf32>
        %ta = bufferization.to_tensor %a restrict : memref<256x1000xf32> to tensor<256x1000xf32>
        %e = tensor.empty() : tensor<256xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
            ins(%ta : tensor<256x1000xf32>) outs(%f : tensor<256xf32>) {
        ^bb0(%x: f32, %acc: f32):
          %s = arith.addf %x, %acc : f32
          linalg.yield %s : f32
        } -> tensor<256xf32>
        %o = kiln.dispatch.binding 1 : memref<256xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<256xf32>, memref<256xf32>) -> ()
        return
      }
      func.func @softmax() {
        %a = kiln.dispatch.binding 0 readonly : memref<256x1000xf32>
        %ta = bufferization.to_tensor %a restrict : memref<256x1000xf32> to tensor<256x1000xf32>
        %e = tensor.empty() : tensor<256x1000xf32>
        %r = linalg.softmax dimension(1) ins(%ta : tensor<256x1000xf32>) outs(%e : tensor<256x1000xf32>) -> tensor<256x1000xf32>
        %o = kiln.dispatch.binding 1 : memref<256x1000xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<256x1000xf32>, memref<256x1000xf32>) -> ()
        return
      }
      // Along another dimension than the innermost: no vector pipeline yet.
      func.func @softmax_columns() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x100x8xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x100x8xf32> to tensor<64x100x8xf32>
        %e = tensor.empty() : tensor<64x100x8xf32>
        %r = linalg.softmax dimension(1) ins(%ta : tensor<64x100x8xf32>) outs(%e : tensor<64x100x8xf32>) -> tensor<64x100x8xf32>
        %o = kiln.dispatch.binding 1 : memref<64x100x8xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<64x100x8xf32>, memref<64x100x8xf32>) -> ()
        return
      }
      func.func @conv() {
        %zero = arith.constant 0.0 : f32
        %x = kiln.dispatch.binding 0 readonly : memref<1x10x10x3xf32>
        %tx = bufferization.to_tensor %x restrict : memref<1x10x10x3xf32> to tensor<1x10x10x3xf32>
        %w = kiln.dispatch.binding 1 readonly : memref<3x3x3x8xf32>
        %tw = bufferization.to_tensor %w restrict : memref<3x3x3x8xf32> to tensor<3x3x3x8xf32>
        %e = tensor.empty() : tensor<1x8x8x8xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
        %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
            ins(%tx, %tw : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
        %o = kiln.dispatch.binding 2 : memref<1x8x8x8xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<1x8x8x8xf32>, memref<1x8x8x8xf32>) -> ()
        return
      }
      func.func @tuned() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<4x4xf32>
        %ta = bufferization.to_tensor %a restrict : memref<4x4xf32> to tensor<4x4xf32>
        %e = tensor.empty() : tensor<4x4xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "tuned", workgroup = [1, 1, 0]>} ins(%ta, %ta : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
        %o = kiln.dispatch.binding 1 : memref<4x4xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<4x4xf32>, memref<4x4xf32>) -> ()
        return
      }
    }
  }
}

// -----

// N fits one vector (16 floats): register tiles of 8x16, not 8x32 of which
// half would compute padding.
// CHECK-LABEL: kiln.executable private @matmul_narrow_n
// CHECK: linalg.matmul {kiln.configured_by = {heuristic = "cpu-contraction"}, kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 16, 0], cache = [64, 16, 32], register = [8, 16, 1], vector = [8, 16, 1]>}
kiln.executable private @matmul_narrow_n {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<12544x32xf32>
        %ta = bufferization.to_tensor %a restrict : memref<12544x32xf32> to tensor<12544x32xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<32x16xf32>
        %tb = bufferization.to_tensor %b restrict : memref<32x16xf32> to tensor<32x16xf32>
        %e = tensor.empty() : tensor<12544x16xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12544x16xf32>) -> tensor<12544x16xf32>
        %mm = linalg.matmul ins(%ta, %tb : tensor<12544x32xf32>, tensor<32x16xf32>) outs(%f : tensor<12544x16xf32>) -> tensor<12544x16xf32>
        %o = kiln.dispatch.binding 2 : memref<12544x16xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<12544x16xf32>, memref<12544x16xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A large product whose rows do not divide into 64: tiles as even as
// whole register tiles allow (196 rows: 56, 56, 56, 28), so two threads
// take 112 and 84 rows rather than 128 and 68. A small one keeps tiles of
// 64 (97 rows: 64 and 33), the lighter last one for the thread that joins
// late.
// CHECK-LABEL: kiln.executable private @matmul_even_rows
// CHECK: linalg.matmul {{.*}}workgroup = [56, 256, 0], cache = [56, 256, 256]
kiln.executable private @matmul_even_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<196x2304xf32>
        %ta = bufferization.to_tensor %a restrict : memref<196x2304xf32> to tensor<196x2304xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<2304x256xf32>
        %tb = bufferization.to_tensor %b restrict : memref<2304x256xf32> to tensor<2304x256xf32>
        %e = tensor.empty() : tensor<196x256xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<196x256xf32>) -> tensor<196x256xf32>
        %mm = linalg.matmul ins(%ta, %tb : tensor<196x2304xf32>, tensor<2304x256xf32>) outs(%f : tensor<196x256xf32>) -> tensor<196x256xf32>
        %o = kiln.dispatch.binding 2 : memref<196x256xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<196x256xf32>, memref<196x256xf32>) -> ()
        return
      }
    }
  }
}

// -----

// CHECK-LABEL: kiln.executable private @matmul_small_rows
// CHECK: linalg.matmul {{.*}}workgroup = [64, 128, 0], cache = [64, 128, 97]
kiln.executable private @matmul_small_rows {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @matmul workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul() {
        %zero = arith.constant 0.0 : f32
        %a = kiln.dispatch.binding 0 readonly : memref<97x97xf32>
        %ta = bufferization.to_tensor %a restrict : memref<97x97xf32> to tensor<97x97xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<97x97xf32>
        %tb = bufferization.to_tensor %b restrict : memref<97x97xf32> to tensor<97x97xf32>
        %e = tensor.empty() : tensor<97x97xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<97x97xf32>) -> tensor<97x97xf32>
        %mm = linalg.matmul ins(%ta, %tb : tensor<97x97xf32>, tensor<97x97xf32>) outs(%f : tensor<97x97xf32>) -> tensor<97x97xf32>
        %o = kiln.dispatch.binding 2 : memref<97x97xf32>
        bufferization.materialize_in_destination %mm in restrict writable %o : (tensor<97x97xf32>, memref<97x97xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A global pooling over an image whose size is known only at run time:
// its work per channel unknown, the 200 channels are shared among eight
// workgroups of 25 (taken as large, the reduction would have had one
// channel per workgroup, 200 workgroups of a few hundred elements each).
// CHECK-LABEL: kiln.executable private @dynamic_pooling
// CHECK: linalg.generic {{.*}}pipeline = "cpu-reduction", workgroup = [1, 25, 0, 0]
kiln.executable private @dynamic_pooling {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @pool workgroups(%n: index, %c: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%n, %c)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @pool() {
        %zero = arith.constant 0.0 : f32
        %n = kiln.dispatch.constant 0 : index
        %h = kiln.dispatch.constant 1 : index
        %w = kiln.dispatch.constant 2 : index
        %a = kiln.dispatch.binding 0 readonly : memref<?x200x?x?xf32>{%n, %h, %w}
        %ta = bufferization.to_tensor %a restrict : memref<?x200x?x?xf32> to tensor<?x200x?x?xf32>
        %e = tensor.empty(%n) : tensor<?x200xf32>
        %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x200xf32>) -> tensor<?x200xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
            ins(%ta : tensor<?x200x?x?xf32>) outs(%f : tensor<?x200xf32>) {
        ^bb0(%x: f32, %acc: f32):
          %s = arith.addf %x, %acc : f32
          linalg.yield %s : f32
        } -> tensor<?x200xf32>
        %o = kiln.dispatch.binding 1 : memref<?x200xf32>{%n}
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?x200xf32>, memref<?x200xf32>) -> ()
        return
      }
    }
  }
}
