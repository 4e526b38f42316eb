//===- Passes.td - Dispatch formation passes ---------------*- tablegen -*-===//
//
// Split the program into host code and dispatches: group each root op with
// the elementwise ops fused into it, outline each group into an executable,
// and share executables between identical dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DISPATCHFORMATION_PASSES_TD
#define KILN_DISPATCHFORMATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FormDispatchRegionsPass
    : Pass<"kiln-form-dispatch-regions", "mlir::func::FuncOp"> {
  let summary = "Group each root op and its fusable neighbours into a region";
  let description = [{
    Picks root ops in two rounds: first ops with reduction loops
    (contractions, convolutions, pooling, reductions) and the other linalg
    ops with an iteration space of their own (softmax, pack, unpack), then
    every remaining compute op on tensors (elementwise generics, fills,
    copies, pads, concatenations, slices). Each root becomes one
    `kiln.dispatch.region` with:

    - its elementwise consumers, in a chain, when they iterate over the
      root's parallel loops;
    - its elementwise producers that have no other users, moved in;
    - `tensor.empty`, splat constants and fills of them, cloned in.

    The region's workload is the root's parallel loop sizes and the dynamic
    dimensions of its results, both computed on the host.

    Before:
    ```mlir
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> ...
    %m = linalg.matmul ins(%a, %b : ...) outs(%f : ...) -> tensor<8x16xf32>
    %r = linalg.generic {...} ins(%m, %bias : ...) outs(%e : ...) { addf,
        maximumf } -> tensor<8x16xf32>
    ```
    After:
    ```mlir
    %r = kiln.dispatch.region[%c8, %c16] -> (tensor<8x16xf32>) {
      %e = tensor.empty() : tensor<8x16xf32>
      %f = linalg.fill ...
      %m = linalg.matmul ...
      %0 = linalg.generic ...
      kiln.return %0 : tensor<8x16xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::kiln::KilnDialect",
    "mlir::affine::AffineDialect",
    "mlir::arith::ArithDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def OutlineDispatchRegionsPass
    : Pass<"kiln-outline-dispatch-regions", "mlir::ModuleOp"> {
  let summary = "Turn each dispatch region into an executable and a dispatch";
  let description = [{
    Outlines every `kiln.dispatch.region` into a `kiln.executable` in source
    form, named `<function>_dispatch_<n>`, with one export named after the
    root op (for example `main_dispatch_0_matmul_8x16x32_f32`). The kernel
    function takes no arguments: it reads each tensor the region used from
    a `kiln.dispatch.binding` (wrapped in `bufferization.to_tensor`), each
    scalar and dynamic dimension from a `kiln.dispatch.constant`, and writes
    each result into an output binding with
    `bufferization.materialize_in_destination`. Scalar constants and splat
    tensor constants are cloned into the kernel instead of being passed.
    The region is replaced by `kiln.dispatch` with the same workload.
  }];
  let dependentDialects = [
    "::kiln::KilnDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::func::FuncDialect",
    "mlir::memref::MemRefDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def DeduplicateExecutablesPass
    : Pass<"kiln-deduplicate-executables", "mlir::ModuleOp"> {
  let summary = "Share one executable between structurally identical ones";
  let description = [{
    Two executables that differ only in their symbol names (and source
    locations) compute the same thing: dispatches of the second are pointed
    at the first, and the second is erased.
  }];
}

def OutlineExternalDispatchesPass
    : Pass<"kiln-outline-external-dispatches", "mlir::ModuleOp"> {
  let summary = "Turn each kiln.external_dispatch into an executable";
  let description = [{
    Replaces every `kiln.external_dispatch` with a `kiln.dispatch` of a new
    executable: its export takes the op's workgroup count region, and its
    kernel, already in the LLVM dialect (configuration and codegen leave it
    alone), calls the external one. A kernel from an object file: the
    executable lists the object (`kiln.objects`, which each variant links),
    after checking that it can be linked and defines the kernel's symbol.
    A kernel from a runtime extension: the executable lists it in
    `kiln.externs`, and its kernel calls through the module's slot for it.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // KILN_DISPATCHFORMATION_PASSES_TD
