// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-tile-and-distribute-to-workgroups)))' -verify-diagnostics

// A dynamic loop needs its size from the host: the workload must carry it.
kiln.executable private @short_workload {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    // expected-error @+1 {{has a workload of 0 values, but parallel loop #0 of linalg.generic is dynamic and needs workload value #0}}
    kiln.executable.export public @ew workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @ew() {
        %n = kiln.dispatch.constant 0 : index
        %a = kiln.dispatch.binding 0 readonly : memref<?xf32>{%n}
        %ta = bufferization.to_tensor %a restrict : memref<?xf32> to tensor<?xf32>
        %e = tensor.empty(%n) : tensor<?xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
            ins(%ta : tensor<?xf32>) outs(%e : tensor<?xf32>) attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [1024], register = [16], vector = [16]>} {
        ^bb0(%x: f32, %o: f32):
          %y = math.exp %x : f32
          linalg.yield %y : f32
        } -> tensor<?xf32>
        %o = kiln.dispatch.binding 1 : memref<?xf32>{%n}
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?xf32>, memref<?xf32>) -> ()
        return
      }
    }
  }
}
