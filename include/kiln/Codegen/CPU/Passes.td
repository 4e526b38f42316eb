//===- Passes.td - CPU codegen passes ----------------------*- tablegen -*-===//
//
// Configuration heuristics and code generation for the llvm-cpu backend.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_CPU_PASSES_TD
#define KILN_CODEGEN_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def CPUSelectLoweringConfigPass
    : Pass<"kiln-cpu-select-lowering-config", "::kiln::ExecutableVariantOp"> {
  let summary = "Give every dispatch root a lowering config by heuristics";
  let description = [{
    For each kernel of the variant, attaches to the dispatch's root op a
    `kiln.lowering_config` computed from the variant's CPU: its vector
    width, vector register count and cache sizes. Roots that already carry
    a config (from a tuning spec) keep it.

    - Contractions (`cpu-contraction`): a register tile of the vector
      registers' worth of accumulators, cache tiles that fit the L2 cache,
      workgroup tiles that give every core work.
    - Reductions (`cpu-reduction`) and elementwise ops (`cpu-elementwise`):
      one vector along the innermost loop.
    - Everything else (`cpu-default`): workgroup tiles only.
  }];
}

def CPUTileAndVectorizePass : Pass<"kiln-cpu-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile a workgroup's ops by their config and vectorize them";
  let description = [{
    Within each workgroup tile, tiles the root op (and the ops fused with
    it) by the `cache` and `register` levels of its lowering config and
    vectorizes the innermost tiles with the `vector` sizes, masking partial
    tiles. Contractions get their B operand packed into panels of the
    register tile's width, and their accumulators kept in registers across
    the reduction loop. Reductions along the innermost loop accumulate into
    a vector of partial results that is reduced once per row. Ops that
    cannot be vectorized stay as they are and become loops.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect",
    "mlir::arith::ArithDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect",
  ];
}

def CPULowerVectorsPass : Pass<"kiln-cpu-lower-vectors", "mlir::func::FuncOp"> {
  let summary = "Lower n-D vector ops to what LLVM maps onto x86 vectors";
  let description = [{
    Runs after bufferization: floating-point multiplies and adds may
    contract into FMAs, contractions become outer products (one broadcast
    and one FMA per row of the register tile), masks move into
    the transfers they guard, reductions along the innermost dimension
    become one horizontal reduction per row and other multi-dimensional
    reductions elementwise ops across rows, transposes, broadcasts and
    shape casts become one-dimensional ones. `exp`, `expm1`, `log`,
    `log2`, `log1p`, `tanh`, `erf` and `erfc` become polynomial
    approximations that vectorize (denormal inputs count as zero); other
    math functions stay calls to libm. Transfers are unrolled to one
    dimension afterwards by `convert-vector-to-scf`.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::math::MathDialect",
    "mlir::vector::VectorDialect",
  ];
}

def CPULowerMinMaxPass : Pass<"kiln-cpu-lower-min-max"> {
  let summary = "Float minima and maxima to LLVM intrinsics, signed zeros equal";
  let description = [{
    `arith-expand` turns `arith.maximumf`, `minimumf`, `maxnumf` and
    `minnumf` into compares and selects that LLVM's instruction combiner
    merges into two compares into masks, a mask `or` and a blend on
    AVX-512; a max pool spends most of its time there. This pass lowers
    them instead to `llvm.maximum`, `llvm.minimum`, `llvm.maxnum` and
    `llvm.minnum`, with the op's fast-math flags and `nsz`: on x86 a
    `maxps`, one compare and one blend to put back the NaN `maxps` drops
    (a ReLU, `maximumf(x, 0)`, is one `maxps`). NaNs behave as the arith
    ops say; `+0` and `-0` count as equal, either may come out of a
    comparison between them, as with `arith-expand` (which returns the
    second operand).

    Only types LLVM has (f16, bf16, f32, f64, and one-dimensional vectors
    of them) are lowered; the rest is left to `arith-expand`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // KILN_CODEGEN_CPU_PASSES_TD
