// RUN: kiln-opt %s --kiln-deduplicate-executables | FileCheck %s

// @ex_a and @ex_b differ only in names: @ex_b goes, its dispatch now calls
// @ex_a. @ex_c computes something else and stays.
// CHECK:     kiln.executable private @ex_a
// CHECK-NOT: kiln.executable private @ex_b
// CHECK:     kiln.executable private @ex_c
// CHECK-LABEL: func.func @main
// CHECK:       %[[A:.+]] = kiln.dispatch @ex_a::@ex_a_exp(
// CHECK:       %[[B:.+]] = kiln.dispatch @ex_a::@ex_a_exp(%[[A]])
// CHECK:       kiln.dispatch @ex_c::@ex_c_neg(%[[B]])
kiln.executable private @ex_a {
  kiln.executable.export public @ex_a_exp workgroups() -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload()
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @ex_a_exp() {
      %0 = kiln.dispatch.binding 0 readonly : memref<4xf32>
      %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
      %2 = tensor.empty() : tensor<4xf32>
      %3 = linalg.exp ins(%1 : tensor<4xf32>) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
      %4 = kiln.dispatch.binding 1 : memref<4xf32>
      bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<4xf32>, memref<4xf32>) -> ()
      return
    }
  }
}
kiln.executable private @ex_b {
  kiln.executable.export public @ex_b_exp workgroups() -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload()
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @ex_b_exp() {
      %0 = kiln.dispatch.binding 0 readonly : memref<4xf32>
      %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
      %2 = tensor.empty() : tensor<4xf32>
      %3 = linalg.exp ins(%1 : tensor<4xf32>) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
      %4 = kiln.dispatch.binding 1 : memref<4xf32>
      bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<4xf32>, memref<4xf32>) -> ()
      return
    }
  }
}
kiln.executable private @ex_c {
  kiln.executable.export public @ex_c_neg workgroups() -> (index, index, index) {
    %x, %y, %z = kiln.workgroup_count_from_workload()
    kiln.return %x, %y, %z : index, index, index
  }
  builtin.module {
    func.func @ex_c_neg() {
      %0 = kiln.dispatch.binding 0 readonly : memref<4xf32>
      %1 = bufferization.to_tensor %0 restrict : memref<4xf32> to tensor<4xf32>
      %2 = tensor.empty() : tensor<4xf32>
      %3 = linalg.negf ins(%1 : tensor<4xf32>) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
      %4 = kiln.dispatch.binding 1 : memref<4xf32>
      bufferization.materialize_in_destination %3 in restrict writable %4 : (tensor<4xf32>, memref<4xf32>) -> ()
      return
    }
  }
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = kiln.dispatch @ex_a::@ex_a_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = kiln.dispatch @ex_b::@ex_b_exp(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = kiln.dispatch @ex_c::@ex_c_neg(%b) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
