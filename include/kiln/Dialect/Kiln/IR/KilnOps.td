//===- KilnOps.td - Kiln operations ------------------------*- tablegen -*-===//
//
// Executables and their variants and exports, dispatch regions and
// dispatches on the host, and the interface kernels use to reach their
// operands.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECT_KILN_IR_KILNOPS_TD
#define KILN_DIALECT_KILN_IR_KILNOPS_TD

include "kiln/Dialect/Kiln/IR/KilnBase.td"
include "kiln/Dialect/Kiln/IR/KilnAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

def Kiln_ExecutableOp : Kiln_Op<"executable", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Symbol,
    SymbolTable]> {
  let summary = "The code of one dispatch, for every target";
  let description = [{
    Holds everything needed to run one kind of dispatch. Right after dispatch
    formation an executable is in *source form*: `kiln.executable.export` ops
    and one `builtin.module` holding a function of the same name for each
    export. The executable-sources phase turns it into *target form*: one
    `kiln.executable.variant` per requested target, each a copy of the source
    that the target's pipeline then configures and lowers.

    ```mlir
    kiln.executable private @main_dispatch_0 {
      kiln.executable.export public @main_dispatch_0_matmul_4x8x16_f32
          workgroups(%m: index, %n: index) -> (index, index, index) {
        %x, %y, %z = kiln.workgroup_count_from_workload(%m, %n)
        kiln.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @main_dispatch_0_matmul_4x8x16_f32() { ... }
      }
    }
    ```
  }];
  let arguments = (ins
    OptionalAttr<StrAttr>:$sym_visibility,
    SymbolNameAttr:$sym_name
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<SymbolVisibility>($sym_visibility) $sym_name
    attr-dict-with-keyword $body
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name)>,
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// True when the executable holds target variants rather than source.
    bool isTargetForm();
    /// The source module (source form only), or null.
    ::mlir::ModuleOp getSourceModule();
    auto getVariantOps() { return getBlock().getOps<ExecutableVariantOp>(); }
    auto getExportOps() { return getBlock().getOps<ExecutableExportOp>(); }
  }];
}

def Kiln_ExecutableVariantOp : Kiln_Op<"executable.variant", [
    HasParent<"::kiln::ExecutableOp">, IsolatedFromAbove, NoRegionArguments,
    NoTerminator, SingleBlock, Symbol, SymbolTable]> {
  let summary = "An executable compiled for one target";
  let description = [{
    One target's copy of an executable: its exports and, until serialization,
    the `builtin.module` that holds their code. The `target` attribute names
    the backend that lowers the variant and the configuration it lowers for.
    A variant whose module is already in the LLVM dialect (for instance
    because an executable preprocessing tool lowered it) is left alone by
    code generation. `objects` lists object files serialization links in
    with the variant's code (see `#kiln.object`).

    ```mlir
    kiln.executable.variant public @llvm_cpu
        target(#kiln.target<"llvm-cpu", {cpu = "znver5"}>) {
      kiln.executable.export public @fn workgroups(...) ... { ... }
      builtin.module { ... }
    }
    ```
  }];
  let arguments = (ins
    OptionalAttr<StrAttr>:$sym_visibility,
    SymbolNameAttr:$sym_name,
    Kiln_TargetAttr:$target,
    OptionalAttr<Kiln_ObjectArrayAttr>:$objects
  );
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    custom<SymbolVisibility>($sym_visibility) $sym_name
    `target` `(` qualified($target) `)` attr-dict-with-keyword $body
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "TargetAttr":$target)>,
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// The module holding the variant's code, or null.
    ::mlir::ModuleOp getInnerModule();
    auto getExportOps() { return getBlock().getOps<ExecutableExportOp>(); }
  }];
}

def Kiln_ExecutableExportOp : Kiln_Op<"executable.export", [
    IsolatedFromAbove, ParentOneOf<["::kiln::ExecutableOp",
                                    "::kiln::ExecutableVariantOp"]>,
    Symbol]> {
  let summary = "An entry point of an executable and its workgroup count";
  let description = [{
    Declares an entry point; the function of the same name in the sibling
    `builtin.module` implements one workgroup of it. The region computes the
    number of workgroups along x, y and z from the workload the host passes
    to `kiln.dispatch`. Before code generation decides the workgroup tile it
    holds `kiln.workgroup_count_from_workload`, which codegen replaces with
    the arithmetic that matches its tiling.
  }];
  let arguments = (ins
    OptionalAttr<StrAttr>:$sym_visibility,
    SymbolNameAttr:$sym_name
  );
  let regions = (region SizedRegion<1>:$workgroup_count);
  let assemblyFormat = [{
    custom<SymbolVisibility>($sym_visibility) $sym_name
    custom<WorkgroupCountRegion>($workgroup_count)
    attr-dict-with-keyword
  }];
  let skipDefaultBuilders = 1;
  let builders = [
    // Builds an export whose count region takes `workloadSize` index values
    // and computes the count with kiln.workgroup_count_from_workload.
    OpBuilder<(ins "::llvm::StringRef":$name, "unsigned":$workloadSize)>,
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of workload values the count region takes.
    unsigned getWorkloadSize() {
      return getWorkgroupCount().front().getNumArguments();
    }
  }];
}

def Kiln_ReturnOp : Kiln_Op<"return", [
    Pure, ReturnLike, Terminator,
    ParentOneOf<["::kiln::ExecutableExportOp", "::kiln::DispatchRegionOp",
                 "::kiln::ExternalDispatchOp"]>]> {
  let summary = "Returns values from a Kiln region";
  let description = [{
    Terminates the workgroup count region of `kiln.executable.export` (three
    `index` values: the count along x, y and z) and the body of
    `kiln.dispatch.region` (the region's results).
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

def Kiln_WorkgroupCountFromWorkloadOp
    : Kiln_Op<"workgroup_count_from_workload", [
        Pure, HasParent<"::kiln::ExecutableExportOp">]> {
  let summary = "Workgroup count still to be derived from the workload";
  let description = [{
    Placeholder in an export's workgroup count region: the count is one
    workgroup per workgroup tile of the root op's iteration space, whose
    parallel sizes are the workload. Code generation replaces it with the
    arithmetic that matches the workgroup tile sizes it used.
  }];
  let arguments = (ins Variadic<Index>:$workload);
  let results = (outs Index:$x, Index:$y, Index:$z);
  let assemblyFormat = "`(` $workload `)` attr-dict";
}

//===----------------------------------------------------------------------===//
// Host-side dispatch
//===----------------------------------------------------------------------===//

def Kiln_DispatchRegionOp : Kiln_Op<"dispatch.region", [
    AttrSizedOperandSegments, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>]> {
  let summary = "A group of ops that will run as one dispatch";
  let description = [{
    Marks the ops of its body, which may use values defined above, as one
    future dispatch. `workload` is the parallel iteration space of the
    root op, computed on the host; results with dynamic dimensions list
    them, also computed on the host, in braces after their type. Outlining
    turns every region into a `kiln.executable` and a `kiln.dispatch`.

    ```mlir
    %r = kiln.dispatch.region[%m, %c16] -> (tensor<?x16xf32>{%m}) {
      %0 = linalg.matmul ins(...) outs(...) -> tensor<?x16xf32>
      kiln.return %0 : tensor<?x16xf32>
    }
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$workload,
    Variadic<Index>:$result_dims
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`[` $workload^ `]`)? `->` `(` custom<ShapedTypeList>(type($results),
    $result_dims) `)` $body attr-dict-with-keyword
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The dynamic dimension values of result `index`.
    ::mlir::ValueRange getResultDynamicDims(unsigned index);
  }];
}

def Kiln_DispatchOp : Kiln_Op<"dispatch", [
    AttrSizedOperandSegments, NoMemoryEffect,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs an executable's export over a workload";
  let description = [{
    Calls `@executable::@export` with a workload (the values its workgroup
    count region takes) and operands. Tensor operands become the kernel's
    input bindings in order, followed by one output binding per result;
    scalar operands become its constants in order. Results are new tensors;
    those with dynamic dimensions list them in braces after their type.

    ```mlir
    %r = kiln.dispatch @ex::@fn[%m, %c16](%a, %b, %m)
        : (tensor<?x8xf32>, tensor<8x16xf32>, index) -> tensor<?x16xf32>{%m}
    ```
  }];
  let arguments = (ins
    SymbolRefAttr:$entry_point,
    Variadic<Index>:$workload,
    Variadic<AnyType>:$arguments,
    Variadic<Index>:$result_dims
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $entry_point (`[` $workload^ `]`)? `` `(` $arguments `)` attr-dict `:`
    custom<DispatchSignature>(type($arguments), type($results), $result_dims)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The executable's name: the root of `entry_point`.
    ::mlir::StringAttr getExecutableName() {
      return getEntryPoint().getRootReference();
    }
    /// The export's name: the leaf of `entry_point`.
    ::mlir::StringAttr getExportName() {
      return getEntryPoint().getLeafReference();
    }
    /// The dynamic dimension values of result `index`.
    ::mlir::ValueRange getResultDynamicDims(unsigned index);
  }];
}

//===----------------------------------------------------------------------===//
// Kernel interface
//===----------------------------------------------------------------------===//

def Kiln_DispatchBindingOp : Kiln_Op<"dispatch.binding", [Pure]> {
  let summary = "A buffer the host bound to this dispatch";
  let description = [{
    Returns binding number `binding` of the dispatch as a memref with an
    identity layout; dynamic dimensions come from the operands in braces
    (usually `kiln.dispatch.constant` values). Input bindings are `readonly`.

    ```mlir
    %d = kiln.dispatch.constant 0 : index
    %a = kiln.dispatch.binding 0 readonly : memref<?x8xf32>{%d}
    ```
  }];
  let arguments = (ins
    ConfinedAttr<I64Attr, [IntNonNegative]>:$binding,
    UnitAttr:$readonly,
    Variadic<Index>:$dynamic_dims
  );
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = [{
    $binding (`readonly` $readonly^)? `:` type($result)
    (`{` $dynamic_dims^ `}`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Kiln_DispatchConstantOp : Kiln_Op<"dispatch.constant", [Pure]> {
  let summary = "A scalar the host passed to this dispatch";
  let description = [{
    Returns constant number `index` of the dispatch: the scalar operands of
    `kiln.dispatch`, in order.

    ```mlir
    %n = kiln.dispatch.constant 1 : index
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs AnyTypeOf<[Index, AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
}

def Kiln_WorkgroupIdOp : Kiln_Op<"workgroup.id", [Pure]> {
  let summary = "The id of the workgroup running this kernel";
  let description = [{
    Workgroup ids run from 0 to `kiln.workgroup.count` - 1 along each of x
    (`dimension` 0), y (1) and z (2).

    ```mlir
    %x = kiln.workgroup.id 0 : index
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<2>]>:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$dimension attr-dict `:` type($result)";
}

def Kiln_WorkgroupCountOp : Kiln_Op<"workgroup.count", [Pure]> {
  let summary = "The number of workgroups of this dispatch";
  let description = [{
    The workgroup count the export's count region computed, along x
    (`dimension` 0), y (1) or z (2).

    ```mlir
    %n = kiln.workgroup.count 0 : index
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntMinValue<0>, IntMaxValue<2>]>:$dimension);
  let results = (outs Index:$result);
  let assemblyFormat = "$dimension attr-dict `:` type($result)";
}

def Kiln_WorkgroupScratchOp : Kiln_Op<"workgroup.scratch", [Pure]> {
  let summary = "Memory private to the thread running this workgroup";
  let description = [{
    The workgroup's scratch: a buffer of the result's size in bytes,
    aligned to 64 bytes, that no other running workgroup sees and whose
    contents are undefined when the workgroup starts. The runtime keeps it
    allocated across workgroups and calls, so temporary buffers carved out
    of it cost no allocation (`kiln-allocate-workgroup-scratch` turns a
    kernel's `memref.alloc`s of bounded size into views of it). Every op of a kernel
    sees the same memory; the kernel's need is the largest size asked for.

    ```mlir
    %scratch = kiln.workgroup.scratch : memref<262144xi8>
    %panel = memref.view %scratch[%c0][] : memref<262144xi8> to memref<256x256xf32>
    ```
  }];
  let results = (outs MemRefOf<[I8]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Host on buffers
//===----------------------------------------------------------------------===//

def Kiln_LaunchOp : Kiln_Op<"launch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs an export's kernel on buffers";
  let description = [{
    The bufferized form of `kiln.dispatch`: runs the kernel of
    `@executable::@export` (or `@executable::@variant::@export`, in a module
    with several variants per executable) on `x * y * z` workgroups, reading the `ins`
    buffers and writing the `outs` buffers (bindings in that order), with
    the `constants`. `runtime` is the runtime context the host function
    received; it is set once host functions take one.

    ```mlir
    kiln.launch @ex::@fn workgroups(%x, %c1, %c1)
        ins(%a, %b : memref<?x8xf32>, memref<8x16xf32>)
        outs(%c : memref<?x16xf32>) constants(%m : index)
    ```
  }];
  let arguments = (ins
    SymbolRefAttr:$entry_point,
    Optional<LLVM_AnyPointer>:$runtime,
    Index:$workgroup_x,
    Index:$workgroup_y,
    Index:$workgroup_z,
    Variadic<AnyMemRef>:$inputs,
    Variadic<AnyMemRef>:$outputs,
    Variadic<AnyTypeOf<[Index, AnySignlessInteger, AnyFloat]>>:$constants
  );
  let assemblyFormat = [{
    $entry_point (`runtime` `(` $runtime^ `:` type($runtime) `)`)?
    `workgroups` `(` $workgroup_x `,` $workgroup_y `,` $workgroup_z `)`
    (`ins` `(` $inputs^ `:` type($inputs) `)`)?
    (`outs` `(` $outputs^ `:` type($outputs) `)`)?
    (`constants` `(` $constants^ `:` type($constants) `)`)? attr-dict
  }];
  let hasVerifier = 1;
}

def Kiln_VariantIndexOp : Kiln_Op<"variant_index", [Pure]> {
  let summary = "Which of the module's variants the runtime picked";
  let description = [{
    In a module whose executables have one variant per target CPU (the
    host module's `kiln.variant_targets`), the index in that list of the
    variant the runtime chose when it loaded the module: host code launches
    that variant's kernel with that variant's workgroup count. `runtime` is
    the runtime context, set once host functions take one.

    ```mlir
    %v = kiln.variant_index
    scf.index_switch %v
    case 1 { kiln.launch @ex::@llvm_cpu_skylake_avx512::@fn ... }
    default { kiln.launch @ex::@llvm_cpu_x86_64_v3::@fn ... }
    ```
  }];
  let arguments = (ins Optional<LLVM_AnyPointer>:$runtime);
  let results = (outs Index:$result);
  let assemblyFormat = [{
    (`runtime` `(` $runtime^ `:` type($runtime) `)`)? attr-dict
  }];
}

def Kiln_AllocOp : Kiln_Op<"alloc"> {
  let summary = "A host buffer allocated by the runtime";
  let description = [{
    Allocates a dense, row-major buffer through the runtime's
    `kiln.allocate` import (`kiln_module_abi.h`), with one operand per
    dynamic size. The runtime keeps track of the call's buffers: when
    memory runs out it frees them and ends the call with an error instead
    of returning a null pointer. `alignment`, when set, is a power of two
    in bytes; the runtime aligns every buffer to at least 64 bytes.
    Host code gets these from `memref.alloc` once functions take the
    runtime context.

    ```mlir
    %buffer = kiln.alloc(%n) runtime(%context : !llvm.ptr) : memref<?x16xf32>
    ```
  }];
  let arguments = (ins
    Variadic<Index>:$dynamic_sizes,
    LLVM_AnyPointer:$runtime,
    OptionalAttr<I64Attr>:$alignment
  );
  let results = (outs
    Res<AnyMemRef, "", [MemAlloc<DefaultResource, 0, FullEffect>]>:$memref);
  let assemblyFormat = [{
    `(` $dynamic_sizes `)` `runtime` `(` $runtime `:` type($runtime) `)`
    attr-dict `:` type($memref)
  }];
  let hasVerifier = 1;
}

def Kiln_DeallocOp : Kiln_Op<"dealloc"> {
  let summary = "Frees a host buffer allocated by the runtime";
  let description = [{
    Hands a buffer of `kiln.alloc` back to the runtime's `kiln.free`
    import.

    ```mlir
    kiln.dealloc %buffer runtime(%context : !llvm.ptr) : memref<?x16xf32>
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "", [MemFreeAt<0, FullEffect>]>:$memref,
    LLVM_AnyPointer:$runtime
  );
  let assemblyFormat = [{
    $memref `runtime` `(` $runtime `:` type($runtime) `)` attr-dict `:`
    type($memref)
  }];
}

//===----------------------------------------------------------------------===//
// Host values
//===----------------------------------------------------------------------===//

def Kiln_OptimizationBarrierOp : Kiln_Op<"optimization_barrier", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Values the optimizer may not look through";
  let description = [{
    Returns its operands unchanged, and nothing folds through it: a
    constant behind a barrier reaches run time as data instead of being
    folded into the code that uses it (what tests of code generation need).
    Barriers stay on the host and go away when host code is bufferized.

    ```mlir
    %c = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
    %opaque = kiln.optimization_barrier %c : tensor<3xi32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
}

def Kiln_CheckOp : Kiln_Op<"check", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Asserts a property of values at run time";
  let description = [{
    A test assertion that does not stop the program: the runtime records a
    failure, with this op's location, the first element that differs and
    the expected and actual values, and the call goes on. `kiln-run` reports
    the failures (`--check` runs every test function of a module).

    - `true` / `false`: every element of `actual` is nonzero / zero;
    - `eq`: `actual` and `expected` are equal: same shape, same bits (any
      NaN equals any NaN);
    - `almost_eq` (floats): `|actual - expected| <= atol + rtol *
      |expected|` element by element, as numpy's `isclose`.

    Operands are tensors (memrefs once bufferized) or scalars of the
    element types the runtime knows: i1, i8, i16, i32, i64, f16, bf16, f32,
    f64. `runtime` is the runtime context, set once host functions take
    one; the check calls the runtime's `kiln.check` import through it.

    ```mlir
    kiln.check eq(%result, %expected) : tensor<4xi32>
    kiln.check almost_eq(%a, %b) {atol = 1.0e-4 : f32, rtol = 0.0 : f32} : tensor<8xf32>
    kiln.check true(%flag) : i32
    ```
  }];
  let arguments = (ins
    Kiln_CheckKindAttr:$kind,
    AnyType:$actual,
    Optional<AnyType>:$expected,
    Optional<LLVM_AnyPointer>:$runtime,
    DefaultValuedAttr<F32Attr, "1.0e-4f">:$atol,
    DefaultValuedAttr<F32Attr, "0.0f">:$rtol
  );
  let assemblyFormat = [{
    $kind `(` $actual (`,` $expected^)? `)`
    (`runtime` `(` $runtime^ `:` type($runtime) `)`)? attr-dict
    `:` type($actual) (`,` type($expected)^)?
  }];
  let hasVerifier = 1;
}

def Kiln_AssertOp : Kiln_Op<"assert", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Ends the call with an error when a condition is false";
  let description = [{
    A run-time check of what the compiler could not check: when `condition`
    is false, the call stops there, the runtime frees the call's buffers
    and the call returns an error made of the op's location and `message`
    (the same path as a buffer that cannot be allocated). In the message,
    `{N}` stands for `values[N]`, printed as a signed decimal integer
    (narrower integers sign-extended, i1 as 0 or 1), so that the error can
    say which sizes disagreed. Host code only: kernels run on worker threads
    and cannot end the call.

    Kiln's run-time checks (`kiln-check-dynamic-shapes`,
    `kiln-guard-indices-and-divisors`) and front ends make these; a program
    may too. An assertion whose condition folds to true goes away.

    ```mlir
    %same = arith.cmpi eq, %n, %m : index
    kiln.assert %same, "dimension 0 of input 1 is {1}, not {0}" (%n, %m : index, index)
    ```
  }];
  let arguments = (ins
    I1:$condition,
    StrAttr:$message,
    Variadic<AnySignlessIntegerOrIndex>:$values,
    Optional<LLVM_AnyPointer>:$runtime
  );
  let assemblyFormat = [{
    $condition `,` $message (`(` $values^ `:` type($values) `)`)?
    (`runtime` `(` $runtime^ `:` type($runtime) `)`)? attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Kiln_CallExternOp : Kiln_Op<"call_extern", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Calls a host function a runtime extension provides";
  let description = [{
    Calls the host function `callee`, which no module defines: a runtime
    extension provides it (`kiln_extension.h`), and the runtime resolves it
    by name when it loads the module, checking its signature (the op's
    function type) against the extension's. A module whose callee no
    extension provides, or provides with another signature, does not load.

    Operands are ranked tensors and scalars (integers, floats, index); the
    results are new tensors, their dynamic dims given after `dims`, which
    the callee fills. Once bufferized, the tensors are memrefs and the
    results `outs` buffers the host allocated. The call stays on the host:
    dispatch formation leaves it where it is.

    ```mlir
    %y = kiln.call_extern "demo.scale"(%x, %s) : (tensor<?xf32>, f32) -> tensor<?xf32> dims(%n)
    ```
  }];
  let arguments = (ins
    StrAttr:$callee,
    Variadic<AnyType>:$args,
    Variadic<AnyMemRef>:$outs,
    Variadic<Index>:$result_dims,
    Optional<LLVM_AnyPointer>:$runtime
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    $callee `(` $args `)` (`outs` `(` $outs^ `:` type($outs) `)`)?
    (`runtime` `(` $runtime^ `:` type($runtime) `)`)? attr-dict
    `:` functional-type($args, $results) (`dims` `(` $result_dims^ `)`)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The signature a runtime extension must provide the callee with:
    /// the call's function type on tensors, without spaces.
    std::string getSignature();
  }];
}

def Kiln_CallKernelExternOp : Kiln_Op<"call_kernel_extern"> {
  let summary = "Calls, from a kernel, a function a runtime extension provides";
  let description = [{
    In a kernel, calls `callee`, a C function a runtime extension provides
    (a micro-kernel, say) instead of code compiled into the module. Each
    memref operand is passed as a pointer to its first element, each index
    as an i64, other scalars as they are; the callee returns nothing.
    `kiln-lower-kernel-externs` turns it into a call through the module's
    slot for `callee`, which the runtime fills when it loads the module,
    and lists the callee and its LLVM signature on the variant
    (`kiln.externs`).

    ```mlir
    kiln.call_kernel_extern "demo.matmul_f32"(%a, %b, %c, %m) : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>, index
    ```
  }];
  let arguments = (ins
    StrAttr:$callee,
    Variadic<AnyTypeOf<[AnyMemRef, Index, AnySignlessInteger, AnyFloat]>>:$args
  );
  let assemblyFormat = [{
    $callee `(` $args `)` attr-dict `:` type($args)
  }];
  let hasVerifier = 1;
}

def Kiln_ExternalDispatchOp : Kiln_Op<"external_dispatch", [
    AttrSizedOperandSegments, IsolatedFromAbove]> {
  let summary = "A dispatch whose kernel is written outside Kiln";
  let description = [{
    A dispatch like the ones Kiln forms, whose kernel is not compiled from
    the program: `kernel` is a `kiln_kernel_fn` (`kiln_module_abi.h`) that
    the object file `object` defines (a relocatable `.o` or an archive,
    linked into the module; a relative path is taken from the folder the
    compile runs in), or, without `object`, that a runtime extension
    provides as a kernel function (`kiln_extension.h`), resolved when the
    module loads.

    The kernel's bindings are the tensor operands, then the results; its
    constants are the scalar operands, in order (nothing else: pass the
    sizes it needs). The `workgroups` region computes the number of
    workgroups from the workload, as an export's does; the kernel runs once
    per workgroup. Results' dynamic dims follow their types.
    `kiln-outline-external-dispatches` turns it into an executable whose
    kernel calls this one, and a `kiln.dispatch` of it.

    ```mlir
    %r = kiln.external_dispatch "saxpy_kernel" object("saxpy_kernel.o")
        [%n](%x, %y, %a, %n)
        : (tensor<?xf32>, tensor<?xf32>, f32, index) -> tensor<?xf32>{%n}
        workgroups(%w: index) -> (index, index, index) {
      %c1 = arith.constant 1 : index
      %c4096 = arith.constant 4096 : index
      %count = arith.ceildivui %w, %c4096 : index
      kiln.return %count, %c1, %c1 : index, index, index
    }
    ```
  }];
  let arguments = (ins
    StrAttr:$kernel,
    OptionalAttr<StrAttr>:$object,
    Variadic<Index>:$workload,
    Variadic<AnyType>:$arguments,
    Variadic<Index>:$result_dims
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$workgroup_count);
  let assemblyFormat = [{
    $kernel (`object` `(` $object^ `)`)? (`[` $workload^ `]`)? `` `(`
    $arguments `)` attr-dict `:`
    custom<DispatchSignature>(type($arguments), type($results), $result_dims)
    custom<WorkgroupCountRegion>($workgroup_count)
  }];
  let hasVerifier = 1;
}

#endif // KILN_DIALECT_KILN_IR_KILNOPS_TD
