// RUN: kiln-opt %s --kiln-bufferize-host | FileCheck %s

// Host tensors become buffers: each dispatch result a new 64-byte aligned
// allocation, each dispatch a launch of the export with the workgroup count
// its region computes from the workload. The public function keeps its
// tensor signature for the runtime to describe, and gets a C interface.
// CHECK-LABEL: func.func @twice(
// CHECK-SAME:      %[[A:.+]]: memref<?xf32>) -> memref<?xf32>
// CHECK-SAME:      kiln.signature = (tensor<?xf32>) -> tensor<?xf32>
// CHECK-SAME:      llvm.emit_c_interface
// CHECK:         %[[N:.+]] = memref.dim %[[A]]
// CHECK:         %[[B:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK:         %[[COUNT:.+]] = arith.ceildivui %[[N]], %{{.+}} : index
// CHECK:         kiln.launch @ex::@scale workgroups(%[[COUNT]], %{{.+}}, %{{.+}}) ins(%[[A]] : memref<?xf32>) outs(%[[B]] : memref<?xf32>) constants(%[[N]] : index)
// CHECK:         %[[C:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
// CHECK:         kiln.launch @ex::@scale workgroups({{.*}}) ins(%[[B]] : memref<?xf32>) outs(%[[C]] : memref<?xf32>)
// CHECK:         return %[[C]] : memref<?xf32>
module attributes {kiln.target = #kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>} {
  kiln.executable private @ex {
    kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu", {cpu = "znver4", cpu_features = "+avx,+avx2,+fma,+avx512f", triple = "x86_64-unknown-linux-gnu"}>) {
      kiln.executable.export public @scale workgroups(%n: index) -> (index, index, index) {
        %c1 = arith.constant 1 : index
        %c64 = arith.constant 64 : index
        %x = arith.ceildivui %n, %c64 : index
        kiln.return %x, %c1, %c1 : index, index, index
      }
      builtin.module {
        llvm.func @scale(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
          llvm.return
        }
      }
    }
  }
  func.func @twice(%a: tensor<?xf32>) -> tensor<?xf32> {
    %c0 = arith.constant 0 : index
    %n = tensor.dim %a, %c0 : tensor<?xf32>
    %b = kiln.dispatch @ex::@scale[%n](%a, %n) : (tensor<?xf32>, index) -> tensor<?xf32>{%n}
    %c = kiln.dispatch @ex::@scale[%n](%b, %n) : (tensor<?xf32>, index) -> tensor<?xf32>{%n}
    return %c : tensor<?xf32>
  }
}
