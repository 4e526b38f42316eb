// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln.executable(kiln.executable.variant(kiln-lower-variant)))' | FileCheck %s

// The llvm-cpu backend's pipeline takes a configured kernel to an LLVM
// function with the kernel ABI, and computes the workgroup count.
// CHECK-LABEL: kiln.executable private @scale
// CHECK:         kiln.executable.export public @scale workgroups(%[[N:.+]]: index)
// CHECK:           %[[COUNT:.+]] = arith.ceildivui %[[N]], %{{.+}} : index
// CHECK:           kiln.return %[[COUNT]], %{{.+}}, %{{.+}} : index, index, index
// CHECK:         builtin.module
// CHECK:           llvm.func @scale(%{{.+}}: !llvm.ptr, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: !llvm.ptr)
// CHECK:             llvm.intr.masked.load
// CHECK:             llvm.fmul
// CHECK:             llvm.intr.masked.store
// CHECK-NOT:       func.func
kiln.executable private @scale {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @scale workgroups(%n: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%n)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @scale() {
        %two = arith.constant 2.0 : f32
        %n = kiln.dispatch.constant 0 : index
        %a = kiln.dispatch.binding 0 readonly : memref<?xf32>{%n}
        %ta = bufferization.to_tensor %a restrict : memref<?xf32> to tensor<?xf32>
        %e = tensor.empty(%n) : tensor<?xf32>
        %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
            ins(%ta : tensor<?xf32>) outs(%e : tensor<?xf32>) attrs = {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [4096], register = [16], vector = [16]>} {
        ^bb0(%x: f32, %o: f32):
          %y = arith.mulf %x, %two : f32
          linalg.yield %y : f32
        } -> tensor<?xf32>
        %o = kiln.dispatch.binding 1 : memref<?xf32>{%n}
        bufferization.materialize_in_destination %r in restrict writable %o : (tensor<?xf32>, memref<?xf32>) -> ()
        return
      }
    }
  }
}

// -----

// A variant already in the LLVM dialect (from a preprocessing tool, say)
// is left as it is.
// CHECK-LABEL: kiln.executable private @prelowered
// CHECK:         kiln.workgroup_count_from_workload
// CHECK:         llvm.func @kernel(%{{.+}}: !llvm.ptr, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: i32, %{{.+}}: !llvm.ptr) {
// CHECK-NEXT:      llvm.return
kiln.executable private @prelowered {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @kernel workgroups() -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload()
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      llvm.func @kernel(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
        llvm.return
      }
    }
  }
}
