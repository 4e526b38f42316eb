// RUN: kiln-opt %s --split-input-file --kiln-link-executables -verify-diagnostics | FileCheck %s

// The executables' object code moves to the host module, in the
// executables' order, and the executables are erased.
// CHECK-LABEL: module attributes
// CHECK-SAME:    kiln.object_code = [dense_resource<a> : tensor<4xi8>, dense_resource<b> : tensor<4xi8>]
// CHECK-NOT:     kiln.executable
// CHECK:         llvm.func @__kiln_kernel_ex0_k
module {
  llvm.func @__kiln_kernel_ex0_k(!llvm.ptr, i32, i32, i32, !llvm.ptr)
  kiln.executable private @ex0 {
    kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">)
        attributes {kiln.object_code = dense_resource<a> : tensor<4xi8>} {
      builtin.module {
      }
    }
  }
  kiln.executable private @ex1 {
    kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">)
        attributes {kiln.object_code = dense_resource<b> : tensor<4xi8>} {
      builtin.module {
      }
    }
  }
}

{-#
  dialect_resources: {
    builtin: {
      a: "0x0100000001020304",
      b: "0x0100000005060708"
    }
  }
#-}

// -----

kiln.executable private @unserialized {
  // expected-error @+1 {{has no object code; run kiln-serialize-executables first}}
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    builtin.module {
    }
  }
}
