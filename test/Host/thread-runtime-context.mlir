// RUN: kiln-opt %s --kiln-thread-runtime-context | FileCheck %s

// Every host function with a body takes the runtime context first and
// hands it to the launches and host calls it makes (never null, which
// LLVM is told); declarations of outside functions are left alone.
kiln.executable private @ex {
  kiln.executable.variant public @llvm_cpu target(#kiln.target<"llvm-cpu">) {
    kiln.executable.export public @k workgroups() -> (index, index, index) {
      %c1 = arith.constant 1 : index
      kiln.return %c1, %c1, %c1 : index, index, index
    }
  }
}

// CHECK-LABEL: func.func private @helper(
// CHECK-SAME:      %[[CTX:.+]]: !llvm.ptr {llvm.nonnull, llvm.noundef}, %[[A:.+]]: memref<4xf32>, %[[B:.+]]: memref<4xf32>)
// CHECK:         kiln.launch @ex::@k runtime(%[[CTX]] : !llvm.ptr) workgroups({{.*}}) ins(%[[A]] : memref<4xf32>) outs(%[[B]] : memref<4xf32>)
func.func private @helper(%a: memref<4xf32>, %b: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  kiln.launch @ex::@k workgroups(%c1, %c1, %c1) ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  return
}

// CHECK-LABEL: func.func @main(
// CHECK-SAME:      %[[CTX:.+]]: !llvm.ptr {llvm.nonnull, llvm.noundef}, %[[A:.+]]: memref<4xf32>) -> memref<4xf32>
// CHECK:         call @helper(%[[CTX]], %[[A]], %{{.+}}) : (!llvm.ptr, memref<4xf32>, memref<4xf32>) -> ()
// CHECK:         call @outside(%[[A]]) : (memref<4xf32>) -> ()
func.func @main(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  call @helper(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  call @outside(%a) : (memref<4xf32>) -> ()
  return %b : memref<4xf32>
}

// Checks call the runtime through the context too.
// CHECK-LABEL: func.func @checked(
// CHECK-SAME:      %[[CTX:.+]]: !llvm.ptr {llvm.nonnull, llvm.noundef}, %[[A:.+]]: memref<4xf32>)
// CHECK:         kiln.check true(%[[A]]) runtime(%[[CTX]] : !llvm.ptr) : memref<4xf32>
func.func @checked(%a: memref<4xf32>) {
  kiln.check true(%a) : memref<4xf32>
  return
}

// CHECK-LABEL: func.func private @outside(memref<4xf32>)
func.func private @outside(memref<4xf32>)
