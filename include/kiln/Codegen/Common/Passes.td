//===- Passes.td - Target-independent codegen passes -------*- tablegen -*-===//
//
// Kernel passes every backend can use: distribution of a dispatch over
// workgroups, decomposition of composite ops, and the lowering of the kernel
// interface to the module ABI.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CODEGEN_COMMON_PASSES_TD
#define KILN_CODEGEN_COMMON_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileAndDistributeToWorkgroupsPass
    : Pass<"kiln-tile-and-distribute-to-workgroups",
           "::kiln::ExecutableVariantOp"> {
  let summary = "Split each kernel into workgroups by its workgroup tile";
  let description = [{
    Tiles the op that produces a kernel's output by the `workgroup` tile of
    the dispatch's `kiln.lowering_config` (carried over from the root op to
    its fused consumers through their indexing maps), fuses every producer
    into the tile, and runs the tiles in a loop that workgroups share
    cyclically:

    ```mlir
    scf.for %t = %workgroup_id to %tile_count step %workgroup_count ...
    ```

    and replaces `kiln.workgroup_count_from_workload` in the export with the
    tile count computed from the workload. Kernels without a workgroup tile
    run as one workgroup.
  }];
  let dependentDialects = [
    "mlir::affine::AffineDialect",
    "mlir::arith::ArithDialect",
    "mlir::scf::SCFDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def SeparateSharedDestinationsPass
    : Pass<"kiln-separate-shared-destinations", "mlir::func::FuncOp"> {
  let summary = "Give each write its own empty or filled tensor before bufferization";
  let description = [{
    CSE merges equal `tensor.empty` and `linalg.fill` ops, so two results
    of one op (a reduction's counts, both starting at 0) can start from one
    tensor, which both then write: after vectorization, two
    `vector.transfer_write`s into it, or two `scf.for` iteration arguments
    it initializes. Empty-tensor elimination then places that tensor in the
    first result's binding, and one-shot bufferization writes both results
    there: the second result was a copy of the first (a wrong-numbers bug
    of multi-result reductions that this pass closes).

    This pass gives each destination use of a fill or an empty tensor (the
    destination of a DPS op, a transfer_write, an insert_slice, the initial
    value of a loop-carried tensor) its own copy of that op, so that every
    write starts from a tensor nobody else writes. It runs right before
    bufferization; the copies are cheap (a fill per result).
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def LowerDynamicExpandShapesPass
    : Pass<"kiln-lower-dynamic-expand-shapes", "mlir::func::FuncOp"> {
  let summary = "Lower memref.expand_shape with several dynamic sizes in a group";
  let description = [{
    MLIR 22.1's `expand-strided-metadata` crashes on a `memref.expand_shape`
    that splits one dimension into several dynamic ones (llvm-project
    issue 186830, fixed after 22.1): a reshape of `?` into `?x?`, which a
    program reshaping its input to sizes read from another input makes.
    This pass lowers such an expand_shape itself, before that pass runs:
    the source's base, offset and strides (`memref.extract_strided_metadata`)
    and a `memref.reinterpret_cast` with the output sizes and, in each
    group, the source's stride times the sizes of the dimensions after it.
    Other expand_shapes are left to `expand-strided-metadata`.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::memref::MemRefDialect",
  ];
}

def DecomposeOpsPass : Pass<"kiln-decompose-ops"> {
  let summary = "Rewrite composite ops into ops codegen lowers directly";
  let description = [{
    Decomposes ops whose lowering is a sequence of simpler ops:
    `linalg.softmax` (and every other op with an aggregated form) into
    generics, `linalg.pack`/`linalg.unpack` into pads, reshapes and
    transposes, `tensor.concat` into insertions into an empty tensor, and
    winograd transforms into loops of matmuls. Other ops are left alone.
  }];
  let dependentDialects = [
    "mlir::linalg::LinalgDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def AllocateWorkgroupScratchPass
    : Pass<"kiln-allocate-workgroup-scratch", "mlir::func::FuncOp"> {
  let summary = "Carve a kernel's bounded buffers out of its workgroup scratch";
  let description = [{
    Replaces every `memref.alloc` of bounded size whose buffer stays inside
    the workgroup (no use, through views, returns it, yields it out of a
    region, passes it to a call or stores it) by a `memref.view` into one
    `kiln.workgroup.scratch`, at offsets that are multiples of 64 bytes;
    each buffer gets bytes of its own (one allocated in a loop reuses its
    bytes in every iteration: it cannot outlive the iteration). The runtime
    keeps that scratch allocated per thread, so the buffers cost no
    `malloc`/`free` and touch no fresh page per workgroup. Runs after
    bufferization, before buffer deallocation (the views are not owned, so
    nothing frees them). A dynamic size needs a constant upper bound the IR
    proves (a partial tile's `affine.min`); the slot is that large and the
    view keeps the dynamic sizes. Unbounded buffers and alignments above 64
    bytes stay `memref.alloc`.
  }];
  let dependentDialects = [
    "kiln::KilnDialect",
    "mlir::memref::MemRefDialect",
    "mlir::arith::ArithDialect",
  ];
}

def LowerKernelExternsPass
    : Pass<"kiln-lower-kernel-externs", "kiln::ExecutableVariantOp"> {
  let summary = "Call runtime extensions' kernel functions through slots";
  let description = [{
    Turns every `kiln.call_kernel_extern "NAME"(args)` in the variant's
    module into a call through the module's pointer `__kiln_extern.NAME`,
    which the runtime fills with the function a runtime extension provides
    when it loads the module: a memref argument is passed as a pointer to
    its first element, an index as an i64. The variant lists what it calls
    in `kiln.externs` (`kind = "kernel"`, the call's LLVM function type as
    its signature), which host code turns into the metadata's `extern`
    lines. Runs after bufferization; two calls of one name with different
    signatures are an error.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::memref::MemRefDialect",
  ];
}

def LowerKernelInterfacePass
    : Pass<"kiln-lower-kernel-interface", "mlir::ModuleOp"> {
  let summary = "Lower the kernel interface to the module ABI";
  let description = [{
    Turns every kernel `func.func @k()` into `func.func @k(%state:
    !llvm.ptr, %x: i32, %y: i32, %z: i32, %scratch: !llvm.ptr)`, the
    `kiln_kernel_fn` of `kiln_module_abi.h`, and reads what the kernel
    interface ops stand for from `%state`: `kiln.dispatch.binding` becomes a
    memref descriptor over the binding's pointer (64-byte aligned),
    `kiln.dispatch.constant` a load of the 64-bit constant narrowed to its
    type, `kiln.workgroup.id` an argument and `kiln.workgroup.count` a load.
    `kiln.workgroup.scratch` becomes a descriptor over `%scratch`, and the
    kernel records the bytes it needs as `kiln.workgroup_scratch_bytes`,
    which host code passes to the runtime with every launch. Runs after
    bufferization.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::memref::MemRefDialect",
  ];
}

def ExpandMemRefCopiesPass : Pass<"kiln-expand-memref-copies"> {
  let summary = "Turn copies of strided memrefs into loops";
  let description = [{
    LLVM lowering turns a `memref.copy` between dense memrefs into a
    `memcpy`, but one with a strided layout into a call to a helper library
    Kiln's modules do not link. This pass rewrites the latter into a loop
    nest of loads and stores.

    With `vector-rows` (kernels, whose lowering handles vector ops), rows
    that are contiguous on both sides and of a static length (up to 256
    elements) move as one vector load and store each, and small static
    copies, which would be memcpy calls of a size LLVM cannot see, are
    rewritten too.
  }];
  let options = [
    Option<"vectorRows", "vector-rows", "bool", /*default=*/"false",
           "Copy contiguous rows of static length as vectors, and expand "
           "small static copies too">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect",
  ];
}

def ExpandSmallFloatsPass : Pass<"kiln-expand-small-floats"> {
  let summary = "Compute on 8-bit and narrower floats in f32";
  let description = [{
    LLVM has no 8-, 6- or 4-bit float types (`f8E4M3FN`, `f8E5M2`,
    `f4E2M1FN`, their FNUZ and other variants). This pass computes every
    arithmetic and math op on them in f32, with conversions around it, and
    expands the conversions between them and other floats (`arith.extf`,
    `arith.truncf`, and the scaled variants) into integer operations on
    their bit patterns: exact for extensions, rounding to nearest even for
    truncations, with overflow, infinities and NaNs mapped as MLIR's
    constant folding maps them (APFloat), so a program gives the same
    result folded or not. Constants become integer constants bitcast to the
    small type. What is left of the small types is storage, which LLVM
    lowering maps to integers of the same width. A truncation from f64 to
    any float narrower than f32 (f16 and bf16 too) goes through f32
    rounded to odd, which rounds correctly and needs no libcall
    (`__truncdfhf2`, which modules do not link). On a CPU without an f32
    to bf16 conversion instruction (AVX512-BF16 or AVX-NE-CONVERT in the
    enclosing variant's target; any CPU outside a variant, host code
    included), f32 to bf16 truncations become integer rounding to nearest
    even too, where LLVM would call `__truncsfbf2`, and arithmetic and math
    on bf16 are done in f32 the same way (LLVM would do them in f32 with
    that call).
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::math::MathDialect",
  ];
}

#endif // KILN_CODEGEN_COMMON_PASSES_TD
