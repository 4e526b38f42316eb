// RUN: kiln-opt %s --split-input-file --kiln-link-executables | FileCheck %s

// Kernels move into the host module under the names host code launches
// them by, replacing its declarations; other definitions of an executable
// are prefixed with its name (and made unique), all internal; declarations
// of outside functions are shared.
// CHECK-LABEL: module
// CHECK-NOT:     kiln.executable
// CHECK:         llvm.func @expf(f32) -> f32
// CHECK-NOT:     llvm.func @__kiln_kernel_ex0_k(!llvm.ptr, i32, i32, i32, !llvm.ptr)
// CHECK:         llvm.func @host()
// CHECK:           llvm.mlir.addressof @__kiln_kernel_ex0_k
// CHECK:           llvm.mlir.addressof @__kiln_kernel_ex1_k
// CHECK:         llvm.func @ex0_helper(
// CHECK:         llvm.func internal @ex0_helper_1(%{{.+}}: f32) -> f32
// CHECK:           llvm.call @expf(
// CHECK:         llvm.func internal @__kiln_kernel_ex0_k(
// CHECK:           llvm.call @ex0_helper_1(
// CHECK:         llvm.func internal @ex1_helper(
// CHECK:         llvm.func internal @__kiln_kernel_ex1_k(
// CHECK:           llvm.call @ex1_helper(
// CHECK-NOT:     llvm.func @expf
module {
  llvm.func @expf(f32) -> f32
  llvm.func @__kiln_kernel_ex0_k(!llvm.ptr, i32, i32, i32, !llvm.ptr)
  llvm.func @__kiln_kernel_ex1_k(!llvm.ptr, i32, i32, i32, !llvm.ptr)
  llvm.func @host() {
    %0 = llvm.mlir.addressof @__kiln_kernel_ex0_k : !llvm.ptr
    %1 = llvm.mlir.addressof @__kiln_kernel_ex1_k : !llvm.ptr
    llvm.return
  }
  llvm.func @ex0_helper(%x: f32) -> f32 {
    llvm.return %x : f32
  }
  kiln.executable private @ex0 {
    kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
      kiln.executable.export public @k workgroups() -> (index, index, index) {
        %c1 = arith.constant 1 : index
        kiln.return %c1, %c1, %c1 : index, index, index
      }
      builtin.module {
        llvm.func @expf(f32) -> f32
        llvm.func @helper(%x: f32) -> f32 {
          %y = llvm.call @expf(%x) : (f32) -> f32
          llvm.return %y : f32
        }
        llvm.func @k(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
          %c = llvm.mlir.constant(1.0 : f32) : f32
          %r = llvm.call @helper(%c) : (f32) -> f32
          llvm.return
        }
      }
    }
  }
  kiln.executable private @ex1 {
    kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
      kiln.executable.export public @k workgroups() -> (index, index, index) {
        %c1 = arith.constant 1 : index
        kiln.return %c1, %c1, %c1 : index, index, index
      }
      builtin.module {
        llvm.func @helper(%x: f32) -> f32 {
          llvm.return %x : f32
        }
        llvm.func @k(%state: !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr) {
          %c = llvm.mlir.constant(1.0 : f32) : f32
          %r = llvm.call @helper(%c) : (f32) -> f32
          llvm.return
        }
      }
    }
  }
}
