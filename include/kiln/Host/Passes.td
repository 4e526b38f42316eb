//===- Passes.td - Host lowering passes --------------------*- tablegen -*-===//
//
// The host phase: host functions on tensors become LLVM functions that
// allocate buffers and ask the runtime to run dispatches.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_HOST_PASSES_TD
#define KILN_HOST_PASSES_TD

include "mlir/Pass/PassBase.td"

def BufferizeHostPass : Pass<"kiln-bufferize-host", "mlir::ModuleOp"> {
  let summary = "Host functions on tensors to host functions on buffers";
  let description = [{
    Checks that every public host function takes and returns ranked tensors
    of element types the runtime knows, records its tensor signature as
    `kiln.signature`, and bufferizes the host code: function boundaries
    take identity-layout memrefs, `kiln.dispatch` becomes `kiln.launch`
    on buffers (its results allocated on the host, its workgroup count
    computed from the workload by the export's count region), constants
    become globals. A dispatch of an executable with one variant per
    target CPU (`kiln.variant_targets`) becomes an `scf.index_switch` on
    `kiln.variant_index` with each variant's launch.
  }];
  let dependentDialects = [
    "::kiln::KilnDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
  ];
}

def PlanHostMemoryPass : Pass<"kiln-plan-host-memory", "mlir::func::FuncOp"> {
  let summary = "Place a host function's static intermediates in one arena";
  let description = [{
    Every buffer a host function allocates and frees in its body (a
    `memref.alloc` of static shape and its `memref.dealloc`, both directly
    in the function's block) lives from its allocation to the last op that
    uses it or a view of it (to its dealloc when a use may alias it
    otherwise: a select, a call, a region's result). Those lifetimes are
    planned at compile time: buffers whose lifetimes do not overlap share
    bytes, each at a 64-byte aligned offset (its own
    alignment if larger) of one arena, placed largest first at the lowest
    offset free for its whole lifetime. The arena is allocated on entry and
    freed before the return; each buffer becomes a `memref.view` of it.
    Buffers of dynamic shape, buffers the function returns and buffers in
    nested regions keep their own allocations. The function records the
    arena's size and the bytes its buffers would take apart as
    `kiln.host_arena = [arena bytes, separate bytes]`.

    ```mlir
    %a = memref.alloc() : memref<256x256xf32>
    kiln.launch @d0 ... outs(%a : ...)
    %b = memref.alloc() : memref<256x256xf32>
    kiln.launch @d1 ... ins(%a : ...) outs(%b : ...)
    memref.dealloc %a
    %c = memref.alloc() : memref<256x256xf32>
    kiln.launch @d2 ... ins(%b : ...) outs(%c : ...)
    memref.dealloc %b
    memref.dealloc %c
    ```

    becomes one arena of 512 KiB, where `%c` takes the bytes of `%a`:

    ```mlir
    %arena = memref.alloc() {alignment = 64 : i64} : memref<524288xi8>
    %a = memref.view %arena[%c0][] : memref<524288xi8> to memref<256x256xf32>
    %b = memref.view %arena[%c262144][] : ...
    %c = memref.view %arena[%c0][] : ...
    ...
    memref.dealloc %arena : memref<524288xi8>
    ```

    The arena comes from the runtime like any host buffer, whose block
    cache keeps it for the next call: a call after the first touches no
    fresh page for its intermediates.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def ThreadRuntimeContextPass
    : Pass<"kiln-thread-runtime-context", "mlir::ModuleOp"> {
  let summary = "Pass the runtime context through every host function";
  let description = [{
    Gives every host function a leading `!llvm.ptr` argument, the
    `kiln_host_context` of `kiln_module_abi.h`; calls between host functions
    pass theirs along and every `kiln.launch` uses the one of its function.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def AllocateThroughRuntimePass
    : Pass<"kiln-allocate-through-runtime", "mlir::ModuleOp"> {
  let summary = "Allocate host buffers through the runtime";
  let description = [{
    In every host function (which takes the runtime context as its first
    argument, see `kiln-thread-runtime-context`), `memref.alloc` becomes
    `kiln.alloc` and `memref.dealloc` becomes `kiln.dealloc` on that
    context: the runtime allocates and frees every host buffer, keeps track
    of the call's buffers, and ends the call with an error when memory runs
    out.
  }];
  let dependentDialects = ["::kiln::KilnDialect"];
}

def DropRetainedDeallocsPass
    : Pass<"kiln-drop-retained-deallocs", "mlir::func::FuncOp"> {
  let summary = "Take returned buffers out of the deallocations before a return";
  let description = [{
    Ownership-based deallocation ends a function with one
    `bufferization.dealloc` of every buffer it owns, retaining the buffers
    it returns. A buffer that is itself one of the retained values (or the
    base of one, through `memref.extract_strided_metadata`) is never freed
    there, so this pass takes it out of the list, when the dealloc's
    updated ownership conditions are unused (as at a public function's
    return). `buffer-deallocation-simplification` does the same by
    comparing every buffer with every retained value, which takes seconds
    for a function with thousands of results; this is one lookup each.
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def NamespaceHostFunctionsPass
    : Pass<"kiln-namespace-host-functions", "mlir::ModuleOp"> {
  let summary = "Move host functions out of the way of the module's own symbols";
  let description = [{
    A host function becomes an LLVM function of the same name in an object
    that also holds the entry points (`kiln_entry_N`), the metadata
    (`kiln_module_info`), C interface wrappers (`_mlir_ciface_NAME`), the
    kernels, and calls of the C library (`malloc`, `free`, `memcpy`). A
    program may name its functions anything, so each host function with a
    body is renamed to `kiln.fn.NAME` (a dot no C symbol has; a suffix if
    that is taken), and a public one keeps its name for the runtime in
    `kiln.export_name`, which the metadata lists.
  }];
}

def NumberDispatchesPass : Pass<"kiln-number-dispatches", "mlir::ModuleOp"> {
  let summary = "Give every dispatch an id and describe it for profiles";
  let description = [{
    Numbers the entry points the module's `kiln.launch` ops run, in the
    order they first appear: each launch gets its entry point's number as
    `kiln.dispatch_id` (host code passes it to the runtime's dispatch
    function), and the module gets `kiln.dispatch_table`, one
    `{name, root, flops, bytes}` per number: the executable's name, its root
    op (`kiln.root_op`, or `? ? ?` when dispatch formation did not record
    one), the FLOPs of one run and the bytes its bindings hold (0 when not
    known statically). The metadata lists the table, so a profile can say
    what each dispatch is.
  }];
}

def ConvertHostToLLVMPass
    : Pass<"kiln-convert-host-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower host functions to the LLVM dialect";
  let description = [{
    Lowers the host functions (not the executables) to the LLVM dialect.
    `kiln.launch` becomes a call of the context's dispatch function with
    the kernel's address, the workgroup count, an array of binding
    pointers and an array of 64-bit constants; the kernel is declared in
    the module, to be defined when executables are linked.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def ReturnResultsInMemoryPass
    : Pass<"kiln-return-results-in-memory", "mlir::ModuleOp"> {
  let summary = "Host functions write their results where their callers store them";
  let description = [{
    The LLVM lowering of a function returns its results as one struct of
    memref descriptors, built by one `llvm.insertvalue` per result, and its
    C interface wrapper stores that struct to the caller's pointer. LLVM's
    instruction selection copies the whole aggregate at every
    `insertvalue`, so a function with thousands of results takes minutes
    to compile. When every call of a host function is a C interface
    wrapper's, storing the whole result to the wrapper's result pointer
    (the runtime's output area), the function instead takes that pointer
    as a new first argument (`llvm.nonnull`), stores each result to its
    field and returns nothing; the aggregate is never built. With one
    return, a result is stored where it is defined (if that dominates the
    return), so that thousands of stores do not make one block before the
    return, which LLVM's instruction scheduler takes quadratic time over;
    with several, each return stores its own. Functions called any other
    way are left as they are.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def EmitEntryPointsPass : Pass<"kiln-emit-entry-points", "mlir::ModuleOp"> {
  let summary = "Export the module's functions and describe them";
  let description = [{
    For every public host function, emits an exported `kiln_entry_fn` (see
    `kiln_module_abi.h`) that unpacks the runtime's descriptor arrays into
    the function's C interface, and one exported metadata text,
    `kiln_module_info`, that names the functions, their entry points,
    tensor signatures and FLOP counts, and the CPU features the code needs.
    Every other function becomes internal to the module.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // KILN_HOST_PASSES_TD
