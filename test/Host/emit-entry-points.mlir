// RUN: kiln-opt %s --split-input-file --kiln-emit-entry-points | FileCheck %s

// Each host function with a signature gets an entry point
// kiln_entry_N(context, inputs, outputs) calling its C interface with the
// outputs pointer (when it has results), the context and each input; the
// metadata describes the target, the CPU features the runtime must find,
// and every function's tensors (-1 for a dynamic size) and FLOPs.
// Everything but the entry points becomes internal.
module attributes {kiln.target = #kiln.target<"llvm-cpu", {cpu = "haswell", cpu_features = "+avx,+avx2,+fma,+cx16,+mmx", triple = "x86_64-unknown-linux-gnu"}>} {
  // CHECK: llvm.func internal @scale(
  llvm.func @scale(%ctx: !llvm.ptr) attributes {kiln.signature = (tensor<4xf32>, tensor<?x3xi32>) -> tensor<4xf32>, kiln.flops = 12 : i64} {
    llvm.return
  }
  // CHECK: llvm.func internal @_mlir_ciface_scale(
  llvm.func @_mlir_ciface_scale(%out: !llvm.ptr, %ctx: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr) attributes {kiln.signature = (tensor<4xf32>, tensor<?x3xi32>) -> tensor<4xf32>} {
    llvm.return
  }
  llvm.func @nothing(%ctx: !llvm.ptr) attributes {kiln.signature = () -> ()} {
    llvm.return
  }
  llvm.func @_mlir_ciface_nothing(%ctx: !llvm.ptr) attributes {kiln.signature = () -> ()} {
    llvm.return
  }
  // Declarations stay external.
  // CHECK: llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @malloc(i64) -> !llvm.ptr
}

// CHECK-LABEL: llvm.func @kiln_entry_0(
// CHECK-SAME:      %[[CTX:[^:]+]]: !llvm.ptr, %[[INPUTS:[^:]+]]: !llvm.ptr, %[[OUTPUTS:[^:]+]]: !llvm.ptr)
// CHECK:         %[[SLOT0:.+]] = llvm.getelementptr %[[INPUTS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[A:.+]] = llvm.load %[[SLOT0]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[SLOT1:.+]] = llvm.getelementptr %[[INPUTS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:         %[[B:.+]] = llvm.load %[[SLOT1]] : !llvm.ptr -> !llvm.ptr
// CHECK:         llvm.call @_mlir_ciface_scale(%[[OUTPUTS]], %[[CTX]], %[[A]], %[[B]])
// CHECK-LABEL: llvm.func @kiln_entry_1(
// CHECK-SAME:      %[[CTX:[^:]+]]: !llvm.ptr,
// CHECK:         llvm.call @_mlir_ciface_nothing(%[[CTX]])
// CHECK:       llvm.mlir.global external constant @kiln_module_info("kiln-module 8\0Atarget x86_64-unknown-linux-gnu haswell\0Afeatures avx,avx2,cx16,fma,mmx\0Afunction scale kiln_entry_0 12\0Ainput f32 1 4\0Ainput i32 2 -1 3\0Aoutput f32 1 4\0Aend\0Afunction nothing kiln_entry_1 0\0Aend\0A\00")

// -----

// The runtime functions host code imports are listed in order.
// CHECK-LABEL: module attributes {kiln.imports = ["kiln.check"]}
// CHECK:         @kiln_module_info("kiln-module 8\0Atarget x86_64-unknown-linux-gnu generic\0Afeatures -\0Aimport kiln.check\0A\00")
module attributes {kiln.imports = ["kiln.check"]} {
}

// -----

// Without a target attribute: a generic CPU with no required features.
// CHECK-LABEL: module {
// CHECK:         @kiln_module_info("kiln-module 8\0Atarget x86_64-unknown-linux-gnu generic\0Afeatures -\0A\00")
module {
}

// -----

// The dispatch table becomes `dispatch` lines, after the imports: name,
// FLOPs, bytes and the root op's three words. A name or root that would
// not be a word (whitespace, a line break, an unprintable byte) has those
// replaced by '_'; a root that is not three words is "? ? ?".
// CHECK-LABEL: module attributes {kiln.dispatch_table
// CHECK:         @kiln_module_info("kiln-module 8\0Atarget x86_64-unknown-linux-gnu generic\0Afeatures -\0Aimport kiln.check\0Adispatch main_dispatch_0 2048 1536 linalg.matmul 8x16x8 f32\0Adispatch odd_name_ 0 0 ? ? ?\0Adispatch main_dispatch_2 0 64 tensor.pad ?x4 i8\0A\00")
module attributes {kiln.imports = ["kiln.check"], kiln.dispatch_table = [
    {name = "main_dispatch_0", root = "linalg.matmul 8x16x8 f32", flops = 2048 : i64, bytes = 1536 : i64},
    {name = "odd name\n", root = "two words", flops = 0 : i64, bytes = 0 : i64},
    {name = "main_dispatch_2", root = "tensor.pad ?x4 i8", flops = 0 : i64, bytes = 64 : i64}]} {
}

// -----

// Names of inputs and outputs (an ONNX graph's) end their lines, with
// spaces, unprintable bytes and '%' as %XX; "" leaves a value unnamed.
module attributes {kiln.target = #kiln.target<"llvm-cpu", {cpu = "generic", triple = "x86_64-unknown-linux-gnu"}>} {
  llvm.func @named(%ctx: !llvm.ptr) attributes {kiln.signature = (tensor<4xf32>, tensor<2xi8>, tensor<f32>) -> tensor<4xf32>, kiln.input_names = ["x", "a b%\09", ""], kiln.output_names = ["out.1"]} {
    llvm.return
  }
  llvm.func @_mlir_ciface_named(%out: !llvm.ptr, %ctx: !llvm.ptr, %a: !llvm.ptr, %b: !llvm.ptr, %c: !llvm.ptr) attributes {kiln.signature = (tensor<4xf32>, tensor<2xi8>, tensor<f32>) -> tensor<4xf32>, kiln.input_names = ["x", "a b%\09", ""], kiln.output_names = ["out.1"]} {
    llvm.return
  }
}
// CHECK: @kiln_module_info("kiln-module 8\0Atarget x86_64-unknown-linux-gnu generic\0Afeatures -\0Afunction named kiln_entry_0 0\0Ainput f32 1 4 x\0Ainput i8 1 2 a%20b%25%09\0Ainput f32 0\0Aoutput f32 1 4 out.1\0Aend\0A\00")

