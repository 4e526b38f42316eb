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
    become globals.
  }];
  let dependentDialects = [
    "::kiln::KilnDialect",
    "mlir::bufferization::BufferizationDialect",
    "mlir::memref::MemRefDialect",
  ];
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
