//===- Passes.td - Global optimization passes --------------*- tablegen -*-===//
//
// Whole-program optimizations on linalg on tensors, before the program is
// split into dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_GLOBALOPTIMIZATION_PASSES_TD
#define KILN_GLOBALOPTIMIZATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertConvolutionsToChannelsLastPass
    : Pass<"kiln-convert-convolutions-to-channels-last"> {
  let summary = "Rewrite channels-first convolutions and pooling as channels-last ones";
  let description = [{
    `linalg.conv_2d_nchw_fchw`, `linalg.depthwise_conv_2d_nchw_chw`,
    `linalg.pooling_nchw_max` and `linalg.pooling_nchw_sum` (the layout of
    PyTorch and ONNX programs) become their NHWC forms, which the CPU
    convolution pipeline vectorizes along the channels, between transposes:
    the image to NHWC, the filter to HWCF (HWC for depthwise), the result
    back to NCHW. A constant filter is transposed here, at compile time; an
    accumulator that is a fill of an empty tensor is made again in NHWC.
    The other transposes are left to elementwise fusion, which merges them
    into the ops around them, and to canonicalization, which cancels a
    transpose back to NCHW followed by one to NHWC: activations stay NHWC
    between convolutions.

    Grouped convolutions (`linalg.conv_2d_ngchw_gfchw`, `conv_2d_ngchw_fgchw`,
    `conv_2d_nhwgc_gfhwc`) have no channels-last named form that codegen
    takes; they become a `linalg.generic` with loops (n, oh, ow, g, f, kh,
    kw, c) over an NHWGC image and a KH x KW x G x C x F filter, its result
    NHWGF, the named op's body kept, with the same transposes around it
    (NCHW programs only) and of the filter.

    Before:
    ```mlir
    %r = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, ...}
        ins(%x, %w : tensor<1x3x9x9xf32>, tensor<8x3x3x3xf32>)
        outs(%f : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    ```
    After:
    ```mlir
    %xt = linalg.transpose ins(%x : tensor<1x3x9x9xf32>)
        outs(%e0 : tensor<1x9x9x3xf32>) permutation = [0, 2, 3, 1]
    %wt = linalg.transpose ins(%w : tensor<8x3x3x3xf32>)
        outs(%e1 : tensor<3x3x3x8xf32>) permutation = [2, 3, 1, 0]
    %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x4x8xf32>)
    %c = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, ...}
        ins(%xt, %wt : ...) outs(%f2 : tensor<1x4x4x8xf32>)
    %r = linalg.transpose ins(%c : tensor<1x4x4x8xf32>)
        outs(%e3 : tensor<1x8x4x4xf32>) permutation = [0, 3, 1, 2]
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def PropagateTransposesPass : Pass<"kiln-propagate-transposes"> {
  let summary = "Sink transposes below elementwise ops so that they cancel or fuse";
  let description = [{
    Moves each `linalg.transpose` that an all-parallel `linalg.generic`
    reads in its own loop order below that op: the op is computed in the
    layout of the transpose's source, and its results are transposed. Every
    operand spanning all the loops must be such a transpose, with one
    permutation; operands of fewer dims (biases, per-channel scales,
    broadcasts) are read through the permuted loops. Two transposes in a
    row become one, or none. A transpose left with several users is copied
    for each linalg op among them that is no convolution, so that
    elementwise fusion merges a copy into each.

    After ConvertConvolutionsToChannelsLast, this keeps an activation with
    several users (a squeeze-and-excitation block's pooling and scaling)
    channels-last, where fusion alone leaves it channels-first.

    Before:
    ```mlir
    %t = linalg.transpose ins(%c : tensor<1x2x3x8xf32>)
        outs(%e : tensor<1x8x2x3xf32>) permutation = [0, 3, 1, 2]
    %a = linalg.generic {indexing_maps = [#id, #id], ...}
        ins(%t) outs(%e) { hardswish }
    %p = linalg.generic {... "reduction", "reduction" ...} ins(%a) ...
    %m = linalg.generic {...} ins(%a, %scale) ...
    ```
    After:
    ```mlir
    %a2 = linalg.generic {indexing_maps = [#id, #id], ...}
        ins(%c) outs(%e2 : tensor<1x2x3x8xf32>) { hardswish }
    %t1 = linalg.transpose ins(%a2) ... permutation = [0, 3, 1, 2]
    %p = linalg.generic {... "reduction", "reduction" ...} ins(%t1) ...
    %m2 = linalg.generic {...} ins(%a2, %scale) ...   // channels-last too
    %m = linalg.transpose ins(%m2) ... permutation = [0, 3, 1, 2]
    ```
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def PackConvolutionFiltersPass : Pass<"kiln-pack-convolution-filters"> {
  let summary = "Lay out constant convolution filters in contiguous panels of output channels";
  let description = [{
    A `linalg.conv_2d_nhwc_hwcf` whose filter is a dense constant of
    `min-filter-bytes` or more with rows (the output channels of one tap
    and input channel) of `min-row-bytes` or more, a whole number of
    panels of `panel-bytes` of output channels and more than one, its
    image, filter and result of one float type, reads its filter in panels
    (`panel-bytes`, or with 0 as wide as every target of `targets`, `cpu`
    and `cpu-features` asks; none when they disagree or do not resolve):
    the constant is laid out at compile time as F/P x
    KH x KW x C x P (P output channels to a panel), and the convolution
    becomes a `linalg.generic` with loops (n, oh, ow, fo, fi, kh, kw, c)
    over it, its result N x OH x OW x F/P x P collapsed to the original
    shape. The CPU convolution pipeline gives a workgroup one panel and runs
    the ordinary convolution on it: each register tile then streams through
    contiguous memory, where the HWCF filter put its rows kilobytes apart.
    Elementwise fusion, after this pass, moves the collapse past the
    convolution's elementwise consumers.

    Before:
    ```mlir
    %w = arith.constant dense<...> : tensor<3x3x256x256xf32>
    %c = linalg.conv_2d_nhwc_hwcf {...} ins(%x, %w : ...)
        outs(%f : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
    ```
    After:
    ```mlir
    %w = arith.constant dense<...> : tensor<8x3x3x256x32xf32>
    %f5 = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x8x32xf32>)
    %g = linalg.generic {indexing_maps = [
        (n, oh, ow, fo, fi, kh, kw, c) -> (n, oh + kh, ow + kw, c),
        (n, oh, ow, fo, fi, kh, kw, c) -> (fo, kh, kw, c, fi),
        (n, oh, ow, fo, fi, kh, kw, c) -> (n, oh, ow, fo, fi)], ...}
        ins(%x, %w : ...) outs(%f5 : tensor<1x14x14x8x32xf32>) { mulf, addf }
    %c = tensor.collapse_shape %g [[0], [1], [2], [3, 4]]
        : tensor<1x14x14x8x32xf32> into tensor<1x14x14x256xf32>
    ```
  }];
  let options = [
    Option<"panelBytes", "panel-bytes", "int64_t", /*default=*/"0",
           "Bytes of output channels in one panel of a packed filter; 0: "
           "as wide as the targets' register tiles ask (TargetBackend's "
           "getWeightPanelBytes: 64 on AVX2, 128 on AVX-512); negative: no "
           "panels">,
    Option<"minRowBytes", "min-row-bytes", "int64_t", /*default=*/"512",
           "Filters whose rows of output channels are shorter stay as they "
           "are (their rows lie close enough together)">,
    Option<"minFilterBytes", "min-filter-bytes", "int64_t",
           /*default=*/"1048576",
           "Smaller filters stay as they are (they stay in L2, 1-2 MiB on "
           "the x86 cores Kiln targets, whatever their layout, and a "
           "workgroup that takes all their output channels pads its part of "
           "the image once, not once per panel)">,
    ListOption<"targets", "targets", "std::string",
               "Target backends the program is compiled for (default: "
               "llvm-cpu)">,
    ListOption<"cpus", "cpu", "std::string",
               "CPUs the program is compiled for: 'host' or LLVM CPU names "
               "(default: host)">,
    Option<"cpuFeatures", "cpu-features", "std::string", /*default=*/"\"\"",
           "Comma-separated +feature/-feature edits of the CPU's features">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def PackContractionWeightsPass : Pass<"kiln-pack-contraction-weights"> {
  let summary = "Lay out constant weights of contractions in contiguous panels of columns";
  let description = [{
    A contraction (a matmul, a linear layer's product, any generic that
    multiplies and adds) one of whose operands is a dense constant W
    indexed by one reduction loop k and one parallel loop n, where n is
    the result's innermost dim, reads W in panels: the constant is laid out
    at compile time as N/P x K x P (P columns to a panel, the width of the
    target's register tile) and the op becomes a `linalg.generic` whose
    loop n is split into the panel `no` and the column within it `ni`, its
    result ... x N/P x P collapsed back. The CPU contraction pipeline then
    streams each panel through contiguous memory instead of packing W at
    run time in every call (W stored transposed, as a linear layer's
    weight is, took an element-by-element gather). ONNX Runtime prepacks
    constant weights the same way.

    Packed are constants of `min-weight-bytes` or more whose N is one panel
    or more (more than one where the constant is K x N: one such panel is
    its own layout), all operands of one float type. Where N is not a whole
    number of panels and the result starts as a fill, the last panel is
    padded with zero columns, which a `tensor.extract_slice` drops from the
    result; other accumulators keep their constant as it is. The
    panel is `panel-bytes` wide, or, with 0, as wide as every target of
    `targets`, `cpu` and `cpu-features` asks (TargetBackend's
    getWeightPanelBytes); nothing is packed when they disagree or the
    options name no valid target (the executable-sources phase reports
    that).

    Before:
    ```mlir
    %w = arith.constant dense<...> : tensor<3072x768xf32>
    %r = linalg.matmul indexing_maps = [(m, n, k) -> (m, k),
        (m, n, k) -> (n, k), (m, n, k) -> (m, n)]
        ins(%x, %w : tensor<128x768xf32>, tensor<3072x768xf32>)
        outs(%f : tensor<128x3072xf32>) -> tensor<128x3072xf32>
    ```
    After (`panel-bytes=64`):
    ```mlir
    %w = arith.constant dense<...> : tensor<192x768x16xf32>
    %f3 = linalg.fill ins(%zero : f32) outs(%e : tensor<128x192x16xf32>)
    %g = linalg.generic {indexing_maps = [(m, no, ni, k) -> (m, k),
        (m, no, ni, k) -> (no, k, ni), (m, no, ni, k) -> (m, no, ni)], ...}
        ins(%x, %w : ...) outs(%f3 : tensor<128x192x16xf32>) { mulf, addf }
    %r = tensor.collapse_shape %g [[0], [1, 2]]
        : tensor<128x192x16xf32> into tensor<128x3072xf32>
    ```
  }];
  let options = [
    Option<"panelBytes", "panel-bytes", "int64_t", /*default=*/"0",
           "Bytes of columns in one panel; 0: as the targets ask; "
           "negative: no panels">,
    Option<"minWeightBytes", "min-weight-bytes", "int64_t",
           /*default=*/"65536",
           "Smaller constants stay as they are (packing them at run time "
           "costs little)">,
    ListOption<"targets", "targets", "std::string",
               "Target backends the program is compiled for (default: "
               "llvm-cpu)">,
    ListOption<"cpus", "cpu", "std::string",
               "CPUs the program is compiled for: 'host' or LLVM CPU names "
               "(default: host)">,
    Option<"cpuFeatures", "cpu-features", "std::string", /*default=*/"\"\"",
           "Comma-separated +feature/-feature edits of the CPU's features">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def WidenNarrowAccumulatorsPass : Pass<"kiln-widen-narrow-accumulators"> {
  let summary = "Accumulate sums and products of narrow floats in f32";
  let description = [{
    A linalg op on tensors that reduces into an f16, bf16 or 8-bit float
    init with one `arith.addf` or `arith.mulf` per step (a sum, a mean's
    sum, a matmul or convolution of f16) rounds at every step in that type:
    the error grows with the length of the reduction, and a sum stops
    growing once its terms fall under half a unit of it (16384 f16 ones
    add up to 2048). Such an op gets an f32 init instead (a fill is filled
    again with the extended value, anything else extended elementwise), its
    combiner runs in f32 on terms extended where they are used, and its
    result is truncated back elementwise once, where elementwise fusion and
    dispatch formation keep it beside the reduction. Reductions by maximum
    or minimum are exact and stay narrow; so do f32 and wider ones.

    Named ops with a body of their own making (`linalg.matmul`,
    convolutions, pooling sums) are built again on the f32 init, which makes
    them extend their operands; `linalg.reduce` and other ops with a body
    given in the IR become the `linalg.generic` they are, with the combiner
    rebuilt in f32.

    Before:
    ```mlir
    %f = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
    %r = linalg.reduce ins(%x : tensor<4096x64xf16>) outs(%f : tensor<64xf16>)
        dimensions = [0]
      (%in: f16, %acc: f16) {
        %s = arith.addf %in, %acc : f16
        linalg.yield %s : f16
      }
    ```
    After:
    ```mlir
    %f = linalg.fill ins(%zero32 : f32) outs(%e32 : tensor<64xf32>) -> tensor<64xf32>
    %r32 = linalg.generic {... ["reduction", "parallel"]}
        ins(%x : tensor<4096x64xf16>) outs(%f : tensor<64xf32>) {
      ^bb0(%in: f16, %acc: f32):
        %w = arith.extf %in : f16 to f32
        %s = arith.addf %w, %acc : f32
        linalg.yield %s : f32
      }
    %r = linalg.generic {... ["parallel"]} ins(%r32 : tensor<64xf32>)
        outs(%e16 : tensor<64xf16>) { arith.truncf }
    ```
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def FuseElementwiseOpsPass : Pass<"kiln-fuse-elementwise-ops"> {
  let summary = "Fuse chains of elementwise linalg ops and fold constants";
  let description = [{
    Turns named all-parallel linalg ops (`linalg.add`, `linalg.exp`,
    `linalg.transpose`, ...) into `linalg.generic`, then fuses each
    elementwise producer into its consumer when the consumer is the
    producer's only user and is no convolution (a convolution that is a
    generic would read a fused transpose's input across its channels, or
    compute a fused activation once per window tap), moves reshapes out of
    the way of such fusions (but never a collapse into a consumer whose
    reduction loop it would split in two: the next matmul after one whose
    weights are in panels stays one reduction over K), and
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

def InterchangeReductionLoopsPass : Pass<"kiln-interchange-reduction-loops"> {
  let summary = "Order a reduction's loops as its input lies in memory";
  let description = [{
    A `linalg.generic` with reduction loops and one input whose indexing
    map is a permutation of all its loops other than the identity (a
    reduction that fusion merged with a transpose: a global pooling of a
    channels-last image, its channel loop outside the reduced ones) has
    its loops reordered so that the input's map is the identity, and the
    innermost loop, which codegen vectorizes, runs along contiguous
    memory. Contractions and convolutions are left alone.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [
        affine_map<(n, c, h, w) -> (n, h, w, c)>,
        affine_map<(n, c, h, w) -> (n, c)>],
        iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
    ```
    After:
    ```mlir
    linalg.generic {indexing_maps = [
        affine_map<(n, h, w, c) -> (n, h, w, c)>,
        affine_map<(n, h, w, c) -> (n, c)>],
        iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
    ```
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
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
