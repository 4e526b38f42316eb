// RUN: kiln-opt %s --split-input-file --kiln-outline-dispatch-regions | FileCheck %s

// Tensors become read-only bindings read through to_tensor, the result an
// output binding written with materialize_in_destination; the scalar
// constant is cloned into the kernel; the export is named after the root,
// and the executable records the root op for profiles.
// CHECK-LABEL: kiln.executable private @static_dispatch_0 attributes {kiln.root_op = "linalg.matmul 4x8x16 f32"} {
// CHECK:         kiln.executable.export public @static_dispatch_0_matmul_4x8x16_f32 workgroups(%[[W0:.+]]: index, %[[W1:.+]]: index) -> (index, index, index) {
// CHECK:           %[[X:.+]], %[[Y:.+]], %[[Z:.+]] = kiln.workgroup_count_from_workload(%[[W0]], %[[W1]])
// CHECK:           kiln.return %[[X]], %[[Y]], %[[Z]]
// CHECK:         builtin.module {
// CHECK:           func.func @static_dispatch_0_matmul_4x8x16_f32() {
// CHECK-DAG:         %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:         %[[B0:.+]] = kiln.dispatch.binding 0 readonly : memref<4x16xf32>
// CHECK-DAG:         %[[T0:.+]] = bufferization.to_tensor %[[B0]] restrict : memref<4x16xf32> to tensor<4x16xf32>
// CHECK-DAG:         %[[B1:.+]] = kiln.dispatch.binding 1 readonly : memref<16x8xf32>
// CHECK-DAG:         %[[T1:.+]] = bufferization.to_tensor %[[B1]] restrict
// CHECK:             %[[F:.+]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK:             %[[MM:.+]] = linalg.matmul ins(%[[T0]], %[[T1]] : {{.*}}) outs(%[[F]]
// CHECK:             %[[OUT:.+]] = kiln.dispatch.binding 2 : memref<4x8xf32>
// CHECK:             bufferization.materialize_in_destination %[[MM]] in restrict writable %[[OUT]]
// CHECK:             return
// CHECK-LABEL: func.func @static(
// CHECK-SAME:      %[[A:.+]]: tensor<4x16xf32>, %[[B:.+]]: tensor<16x8xf32>)
// CHECK:         %[[R:.+]] = kiln.dispatch @static_dispatch_0::@static_dispatch_0_matmul_4x8x16_f32[%c4, %c8](%[[A]], %[[B]]) {kiln.flops = 1024 : i64} : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK:         return %[[R]]
func.func @static(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %r = kiln.dispatch.region[%c4, %c8] -> (tensor<4x8xf32>) {
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
    kiln.return %mm : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Dynamic dims and host scalars travel as constants, one per distinct value;
// a non-splat constant tensor becomes a binding, a splat one is cloned.
// CHECK-LABEL: kiln.executable private @dynamic_dispatch_0 attributes {kiln.root_op = "linalg.generic ? f32"}
// CHECK:         func.func @dynamic_dispatch_0_elementwise_D_f32()
// CHECK-DAG:       %[[SPLAT:.+]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-DAG:       %[[N:.+]] = kiln.dispatch.constant 0 : index
// CHECK-DAG:       %[[S:.+]] = kiln.dispatch.constant 1 : f32
// CHECK-DAG:       %[[BT:.+]] = kiln.dispatch.binding 0 readonly : memref<4xf32>
// CHECK-DAG:       %[[BA:.+]] = kiln.dispatch.binding 1 readonly : memref<?xf32>{%[[N]]}
// CHECK-NOT:       kiln.dispatch.constant 2
// CHECK:           tensor.empty(%[[N]])
// CHECK:           arith.mulf %{{.+}}, %[[S]]
// CHECK:           %[[OUT:.+]] = kiln.dispatch.binding 2 : memref<?xf32>{%[[N]]}
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[A:.+]]: tensor<?xf32>, %[[SCALE:.+]]: f32)
// CHECK:         %[[TABLE:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK:         %[[D:.+]] = tensor.dim %[[A]], %c0
// CHECK:         kiln.dispatch @dynamic_dispatch_0::@dynamic_dispatch_0_elementwise_D_f32[%[[D]]](%[[TABLE]], %[[A]], %[[D]], %[[SCALE]]) : (tensor<4xf32>, tensor<?xf32>, index, f32) -> tensor<?xf32>{%[[D]]}
func.func @dynamic(%a: tensor<?xf32>, %scale: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %table = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %r = kiln.dispatch.region[%n] -> (tensor<?xf32>{%n}) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%x: f32, %o: f32):
      %c1 = arith.constant 1 : index
      %t = tensor.extract %table[%c1] : tensor<4xf32>
      %u = tensor.extract %two[%c1] : tensor<4xf32>
      %m = arith.mulf %x, %scale : f32
      %p = arith.addf %m, %t : f32
      %q = arith.addf %p, %u : f32
      linalg.yield %q : f32
    } -> tensor<?xf32>
    kiln.return %g : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Dispatches in one function are numbered in order; a region using the
// result of another reuses that dispatch's result dims.
// CHECK-LABEL: kiln.executable private @chain_dispatch_0
// CHECK-LABEL: kiln.executable private @chain_dispatch_1
// CHECK:         func.func @chain_dispatch_1_elementwise_D_f32()
// CHECK:           %[[N:.+]] = kiln.dispatch.constant 0 : index
// CHECK:           kiln.dispatch.binding 0 readonly : memref<?xf32>{%[[N]]}
// CHECK:           kiln.dispatch.binding 1 : memref<?xf32>{%[[N]]}
// CHECK-LABEL: func.func @chain(
// CHECK:         %[[FIRST:.+]] = kiln.dispatch @chain_dispatch_0::{{.+}} -> tensor<?xf32>{%[[N:.+]]}
// CHECK:         kiln.dispatch @chain_dispatch_1::{{.+}}[%[[N]]](%[[FIRST]], %[[N]]) : (tensor<?xf32>, index) -> tensor<?xf32>{%[[N]]}
func.func @chain(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %r = kiln.dispatch.region[%n] -> (tensor<?xf32>{%n}) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %x = linalg.exp ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    kiln.return %x : tensor<?xf32>
  }
  %s = kiln.dispatch.region[%n] -> (tensor<?xf32>{%n}) {
    %e = tensor.empty(%n) : tensor<?xf32>
    %x = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
        ins(%r : tensor<?xf32>) outs(%e : tensor<?xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.negf %v : f32
      linalg.yield %y : f32
    } -> tensor<?xf32>
    kiln.return %x : tensor<?xf32>
  }
  return %s : tensor<?xf32>
}

