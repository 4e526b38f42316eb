// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln.executable(kiln-serialize-executables))' | FileCheck %s

// Each executable becomes an object of its own: the variant carries its
// object code (an ELF object, as a dense resource of bytes) and its module
// is gone. Two executables with helpers of the same name do not clash:
// everything but the kernels is internal to its object.
// CHECK-LABEL: kiln.executable private @ex0
// CHECK:         kiln.executable.variant public @llvm_cpu
// CHECK-SAME:      kiln.object_code = dense_resource<kiln_object_ex0> : tensor<{{[0-9]+}}xi8>
// CHECK-NOT:       builtin.module
// CHECK-LABEL: kiln.executable private @ex1
// CHECK:           kiln.object_code = dense_resource<kiln_object_ex1>
// CHECK:       kiln_object_ex0: "0x080000007F454C46
// CHECK:       kiln_object_ex1: "0x080000007F454C46
module {
  llvm.func @__kiln_kernel_ex0_k(!llvm.ptr, i32, i32, i32, !llvm.ptr)
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
