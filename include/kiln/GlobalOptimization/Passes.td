//===- Passes.td - Global optimization passes --------------*- tablegen -*-===//
//
// Whole-program optimizations on linalg on tensors, before the program is
// split into dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_GLOBALOPTIMIZATION_PASSES_TD
#define KILN_GLOBALOPTIMIZATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwiseOpsPass : Pass<"kiln-fuse-elementwise-ops"> {
  let summary = "Fuse chains of elementwise linalg ops and fold constants";
  let description = [{
    Turns named all-parallel linalg ops (`linalg.add`, `linalg.exp`,
    `linalg.transpose`, ...) into `linalg.generic`, then fuses each
    elementwise producer into its consumer when the consumer is the
    producer's only user, moves reshapes out of the way of such fusions, and
    folds elementwise ops whose inputs are all constants (up to
    `max-constant-elements` elements per folded result).

    Before:
    ```mlir
    %0 = linalg.generic {... "parallel" ...} ins(%a, %bias) outs(%e) { addf }
    %1 = linalg.generic {... "parallel" ...} ins(%0) outs(%e) { maximumf }
    ```
    After:
    ```mlir
    %1 = linalg.generic {... "parallel" ...} ins(%a, %bias) outs(%e) {
      addf, maximumf }
    ```
  }];
  let options = [
    Option<"maxConstantElements", "max-constant-elements", "int64_t",
           /*default=*/"1048576",
           "Largest constant result (in elements) folding may create">,
  ];
  let dependentDialects = [
    "mlir::affine::AffineDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def FoldZeroTripLinalgOpsPass : Pass<"kiln-fold-zero-trip-linalg-ops"> {
  let summary = "Replace linalg ops with a loop of zero iterations by their inits";
  let description = [{
    A linalg op on tensors with a static loop range of 0 (a zero-sized
    operand or result, such as a 4x0 by 0x4 matmul) never runs its body, so
    each result is its `outs` operand unchanged. Replacing the op by those
    operands keeps zero-sized work out of dispatch formation and codegen,
    whose tiling divides by the loop ranges.

    Before:
    ```mlir
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    %r = linalg.matmul ins(%a, %b : tensor<4x0xf32>, tensor<0x4xf32>)
                       outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
    ```
    After: uses of `%r` use `%f`.
  }];
}

def MaterializeSplatConstantsPass : Pass<"kiln-materialize-splat-constants"> {
  let summary = "Turn large splat tensor constants into fills";
  let description = [{
    A splat tensor constant holds one value, but lowering it to a global
    writes every element into the module: `dense<1.0> :
    tensor<100000x100000xf32>` would be 40 GB of object code, and LLVM
    takes minutes and gigabytes to build it. Splat constants larger than
    `max-bytes` (4 KiB, one page, by default) become a `linalg.fill` of a
    `tensor.empty`: a value filled in at run time, which elementwise fusion
    turns into a scalar where an elementwise op consumes it. Smaller splats
    stay constants (vector constants in generated code).

    Before:
    ```mlir
    %c = arith.constant dense<1.0> : tensor<1000x1000xf32>
    ```
    After:
    ```mlir
    %one = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<1000x1000xf32>
    %c = linalg.fill ins(%one : f32) outs(%e : tensor<1000x1000xf32>) -> tensor<1000x1000xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"4096",
           "Largest splat constant, in bytes, that stays a constant">
  ];
}

#endif // KILN_GLOBALOPTIMIZATION_PASSES_TD
