// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// CHECK-LABEL: kiln.executable private @source_form
// CHECK:         kiln.executable.export public @fn workgroups(%[[M:.+]]: index, %[[N:.+]]: index) -> (index, index, index) {
// CHECK:           %[[X:.+]], %[[Y:.+]], %[[Z:.+]] = kiln.workgroup_count_from_workload(%[[M]], %[[N]])
// CHECK:           kiln.return %[[X]], %[[Y]], %[[Z]] : index, index, index
// CHECK:         builtin.module
// CHECK:           func.func @fn()
// CHECK:             %[[D:.+]] = kiln.dispatch.constant 0 : index
// CHECK:             kiln.dispatch.binding 0 readonly : memref<?x8xf32>{%[[D]]}
// CHECK:             kiln.dispatch.binding 1 : memref<?x8xf32>{%[[D]]}
kiln.executable private @source_form {
  kiln.executable.export public @fn workgroups(%m: index, %n: index) -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @fn() {
      %d = kiln.dispatch.constant 0 : index
      %in = kiln.dispatch.binding 0 readonly : memref<?x8xf32>{%d}
      %out = kiln.dispatch.binding 1 : memref<?x8xf32>{%d}
      return
    }
  }
}

// CHECK-LABEL: kiln.executable private @target_form
// CHECK:         kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver5", triple = "x86_64-unknown-linux-gnu"}>)
// CHECK:           kiln.executable.export public @fn workgroups
// CHECK:         kiln.executable.variant public @other target(#kiln.target<"other">) attributes {objects = [#kiln.object<"kernels.o">, #kiln.object<"/opt/lib/libk.a">]}
kiln.executable private @target_form {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver5", triple = "x86_64-unknown-linux-gnu"}>) {
    kiln.executable.export public @fn workgroups(%m: index) -> (index, index, index) {
      %x, %y, %z = kiln.workgroup_count_from_workload(%m)
      kiln.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @fn() {
        return
      }
    }
  }
  kiln.executable.variant public @other target(#kiln.target<"other">) attributes {objects = [#kiln.object<"kernels.o">, #kiln.object<"/opt/lib/libk.a">]} {
    kiln.executable.export public @fn workgroups(%m: index) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %m, %c1, %c1 : index, index, index
    }
  }
}

// CHECK-LABEL: func.func @host
func.func @host(%a: tensor<?x8xf32>, %n: index) -> (tensor<?x8xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x8xf32>
  // CHECK: kiln.dispatch @source_form::@fn[%{{.+}}, %{{.+}}](%{{.+}}, %{{.+}}) : (tensor<?x8xf32>, index) -> tensor<?x8xf32>{%{{.+}}}
  %r = kiln.dispatch @source_form::@fn[%d, %n](%a, %d) : (tensor<?x8xf32>, index) -> tensor<?x8xf32>{%d}
  // CHECK: kiln.dispatch @target_form::@fn[%{{.+}}](%{{.+}}) : (tensor<?x8xf32>) -> (tensor<?x8xf32>{%{{.+}}}, tensor<4xf32>)
  %r2:2 = kiln.dispatch @target_form::@fn[%d](%a) : (tensor<?x8xf32>) -> (tensor<?x8xf32>{%d}, tensor<4xf32>)
  // CHECK: kiln.dispatch.region[%{{.+}}] -> (tensor<?x8xf32>{%{{.+}}}, tensor<4xf32>)
  // CHECK:   linalg.fill {kiln.lowering_config = #kiln.lowering_config<pipeline = "cpu-elementwise", workgroup = [4], register = [4]>}
  // CHECK:   kiln.return
  %q:2 = kiln.dispatch.region[%d] -> (tensor<?x8xf32>{%d}, tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill {kiln.lowering_config = #kiln.lowering_config<register = [4], workgroup = [4], pipeline = "cpu-elementwise">} ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    kiln.return %a, %f : tensor<?x8xf32>, tensor<4xf32>
  }
  return %r, %q#1 : tensor<?x8xf32>, tensor<4xf32>
}

// Host values: barriers and checks.
// CHECK-LABEL: func.func @host_values
// CHECK:         %[[B:.+]]:2 = kiln.optimization_barrier %{{.+}}, %{{.+}} : tensor<4xf32>, i32
// CHECK:         kiln.check almost_eq(%{{.+}}, %[[B]]#0) {atol = 1.000000e-03 : f32} : tensor<4xf32>, tensor<4xf32>
// CHECK:         kiln.check eq(%{{.+}}, %[[B]]#0) : tensor<4xf32>, tensor<4xf32>
// CHECK:         kiln.check true(%[[B]]#1) : i32
// CHECK:         kiln.check false(%{{.+}}) runtime(%{{.+}} : !llvm.ptr) : memref<2xi8>
func.func @host_values(%a: tensor<4xf32>, %i: i32, %m: memref<2xi8>, %ctx: !llvm.ptr) {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %b:2 = kiln.optimization_barrier %c, %i : tensor<4xf32>, i32
  kiln.check almost_eq(%a, %b#0) {atol = 1.0e-3 : f32} : tensor<4xf32>, tensor<4xf32>
  kiln.check eq(%a, %b#0) : tensor<4xf32>, tensor<4xf32>
  kiln.check true(%b#1) : i32
  kiln.check false(%m) runtime(%ctx : !llvm.ptr) : memref<2xi8>
  return
}

// CHECK-LABEL: func.func @host_buffers(
// CHECK-SAME:      %[[CTX:.+]]: !llvm.ptr, %[[N:.+]]: index)
// CHECK:         %[[B:.+]] = kiln.alloc(%[[N]]) runtime(%[[CTX]] : !llvm.ptr) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK:         %[[S:.+]] = kiln.alloc() runtime(%[[CTX]] : !llvm.ptr) : memref<f64>
// CHECK:         kiln.dealloc %[[S]] runtime(%[[CTX]] : !llvm.ptr) : memref<f64>
// CHECK:         return %[[B]]
func.func @host_buffers(%ctx: !llvm.ptr, %n: index) -> memref<?x4xf32> {
  %b = kiln.alloc(%n) runtime(%ctx : !llvm.ptr) {alignment = 64 : i64} : memref<?x4xf32>
  %s = kiln.alloc() runtime(%ctx : !llvm.ptr) : memref<f64>
  kiln.dealloc %s runtime(%ctx : !llvm.ptr) : memref<f64>
  return %b : memref<?x4xf32>
}

// CHECK-LABEL: func.func @assertions
// CHECK:         kiln.assert %{{.+}}, "x has {0} elements, not {1}"(%{{.+}}, %{{.+}} : index, i32)
// CHECK:         kiln.assert %{{.+}}, "{braces}" runtime(%{{.+}} : !llvm.ptr)
func.func @assertions(%ok: i1, %n: index, %m: i32, %ctx: !llvm.ptr) {
  kiln.assert %ok, "x has {0} elements, not {1}" (%n, %m : index, i32)
  kiln.assert %ok, "{braces}" runtime(%ctx : !llvm.ptr)
  return
}

