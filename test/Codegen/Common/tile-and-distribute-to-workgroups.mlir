// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-tile-and-distribute-to-workgroups, canonicalize, cse)))' | FileCheck %s

// The root's workgroup tile carries over to the fused bias and ReLU, which
// end the kernel; the matmul and its fill are fused into each tile. The
// export counts ceildiv(M, 64) * (512 / 256) workgroups (static extents
// win over the workload), and each workgroup takes every
// workgroup-count'th tile.
// CHECK-LABEL: kiln.executable private @matmul_bias_relu
// CHECK:      kiln.executable.export public @mm workgroups(%[[M:.+]]: index, %{{.+}}: index)
// CHECK-DAG:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:    %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:    %[[C64:.+]] = arith.constant 64 : index
// CHECK:        %[[ROWS:.+]] = arith.ceildivui %[[M]], %[[C64]]
// CHECK:        %[[COUNT:.+]] = arith.muli %[[ROWS]], %[[C2]]
// CHECK:        kiln.return %[[COUNT]], %[[C1]], %[[C1]]
// CHECK:      func.func @mm()
// CHECK:        %[[ROWS:.+]] = affine.apply #{{.+}}()[%{{.+}}]
// CHECK:        %[[TILES:.+]] = arith.muli %[[ROWS]], %c2
// CHECK:        %[[ID:.+]] = kiln.workgroup.id 0
// CHECK:        %[[STEP:.+]] = kiln.workgroup.count 0
// CHECK:        scf.for %[[T:.+]] = %[[ID]] to %[[TILES]] step %[[STEP]]
// CHECK:          affine.delinearize_index %[[T]] into (%[[ROWS]], 2)
// CHECK:          affine.min
// CHECK:          linalg.fill {{.*}}-> tensor<?x256xf32>
// CHECK:          linalg.matmul {{.*}}ins({{.*}} : tensor<?x256xf32>, tensor<256x256xf32>)
// CHECK:          linalg.generic {{.*}}ins({{.*}} : tensor<?x256xf32>, tensor<256xf32>)
// CHECK:          tensor.insert_slice {{.*}} [%{{.+}}, 256] [1, 1] : tensor<?x256xf32> into tensor<?x512xf32>
// CHECK:        bufferization.materialize_in_destination
kiln.executable private @matmul_bias_relu {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @mm workgroups(%m: index, %n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @mm() {
        %cst = arith.constant 0.000000e+00 : f32
        %m = kiln.dispatch.constant 0 : index
        %a = kiln.dispatch.binding 0 readonly : memref<?x256xf32>{%m}
        %ta = bufferization.to_tensor %a restrict : memref<?x256xf32> to tensor<?x256xf32>
        %b = kiln.dispatch.binding 1 readonly : memref<256x512xf32>
        %tb = bufferization.to_tensor %b restrict : memref<256x512xf32> to tensor<256x512xf32>
        %bias = kiln.dispatch.binding 2 readonly : memref<512xf32>
        %tbias = bufferization.to_tensor %bias restrict : memref<512xf32> to tensor<512xf32>
        %e = tensor.empty(%m) : tensor<?x512xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x512xf32>) -> tensor<?x512xf32>
        %mm = linalg.matmul {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-contraction", workgroup = [64, 256, 0], cache = [64, 256, 256], register = [8, 32, 1], vector = [8, 32, 1]>} ins(%ta, %tb : tensor<?x256xf32>, tensor<256x512xf32>) outs(%f : tensor<?x512xf32>) -> tensor<?x512xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %tbias : tensor<?x512xf32>, tensor<512xf32>) outs(%e : tensor<?x512xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %s = arith.addf %x, %y : f32
          %t = arith.maximumf %s, %cst : f32
          linalg.yield %t : f32
        } -> tensor<?x512xf32>
        %out = kiln.dispatch.binding 3 : memref<?x512xf32>{%m}
        bufferization.materialize_in_destination %r in restrict writable %out : (tensor<?x512xf32>, memref<?x512xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Static shapes need no workload: a tile that divides the range gives
// static slices, and the count is a constant. A zero tile leaves the loop
// whole.
// CHECK-LABEL: kiln.executable private @ew
// CHECK:      kiln.executable.export public @ew workgroups()
// CHECK-DAG:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:    %[[C8:.+]] = arith.constant 8 : index
// CHECK:        kiln.return %[[C8]], %[[C1]], %[[C1]]
// CHECK:      scf.for %{{.+}} = %{{.+}} to %c8 step
// CHECK-NOT:    affine.min
// CHECK:        tensor.extract_slice {{.*}} [8, 2048] [1, 1] : tensor<64x2048xf32> to tensor<8x2048xf32>
// CHECK:        linalg.generic {{.*}}ins(%{{.+}} : tensor<8x2048xf32>)
kiln.executable private @ew {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @ew workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @ew() {
        %a = kiln.dispatch.binding 0 readonly : memref<64x2048xf32>
        %ta = bufferization.to_tensor %a restrict : memref<64x2048xf32> to tensor<64x2048xf32>
        %e = tensor.empty() : tensor<64x2048xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
            ins(%ta : tensor<64x2048xf32>) outs(%e : tensor<64x2048xf32>) attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [8, 0], register = [1, 16], vector = [1, 16]>} {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32
          linalg.yield %y : f32
        } -> tensor<64x2048xf32>
        %o = kiln.dispatch.binding 1 : memref<64x2048xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<64x2048xf32>, memref<64x2048xf32>) -> ()
        return
      }
    }
  }
}

// -----

// Without a lowering config one workgroup runs the whole dispatch.
// CHECK-LABEL: kiln.executable private @unconfigured
// CHECK:      kiln.executable.export public @copy workgroups(%{{.+}}: index)
// CHECK-NEXT:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:   kiln.return %[[C1]], %[[C1]], %[[C1]]
// CHECK-NOT:  scf.for
kiln.executable private @unconfigured {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @copy workgroups(%n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @copy() {
        %a = kiln.dispatch.binding 0 readonly : memref<16xf32>
        %ta = bufferization.to_tensor %a restrict : memref<16xf32> to tensor<16xf32>
        %e = tensor.empty() : tensor<16xf32>
        %r = linalg.copy ins(%ta : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
        %o = kiln.dispatch.binding 1 : memref<16xf32>
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<16xf32>, memref<16xf32>) -> ()
        return
      }
    }
  }
}
