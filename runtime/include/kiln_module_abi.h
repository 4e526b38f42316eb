/*===- kiln_module_abi.h - How compiled modules and the runtime meet -----===*
 *
 * The contract between a module kiln-compile writes (a shared object) and
 * the runtime that loads it. The compiler includes this header too, so both
 * sides agree on every layout and constant below.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_MODULE_ABI_H
#define KILN_MODULE_ABI_H

#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever anything in this header changes. A module records the
 * version it was compiled against; the runtime refuses other versions. */
#define KILN_MODULE_ABI_VERSION 8

/*--- Kernels -------------------------------------------------------------*/

/* What one dispatch hands to each of its workgroups. */
typedef struct kiln_dispatch_state {
  /* One pointer per binding: the dispatch's inputs, then its outputs. Each
   * points to the first element of a dense, row-major buffer. */
  void *const *bindings;
  /* The dispatch's scalar operands, each widened to 64 bits (integers
   * zero-extended from their width, floats as their bit pattern). */
  const uint64_t *constants;
  /* The number of workgroups along x, y and z. */
  uint32_t workgroup_count[3];
  uint32_t reserved;
} kiln_dispatch_state;

/* A kernel runs one workgroup: (x, y, z) is its id. `scratch` is memory
 * private to the thread running the workgroup: the `scratch_bytes` its
 * dispatch asked for (below), aligned to 64 bytes, contents undefined at
 * entry; NULL when the dispatch asked for none. The runtime keeps it
 * allocated across workgroups and dispatches, so a kernel's temporary
 * buffers (packed panels, padded tiles) cost no allocation and touch no
 * fresh page. */
typedef void (*kiln_kernel_fn)(const kiln_dispatch_state *state, uint32_t x,
                               uint32_t y, uint32_t z, void *scratch);

/*--- Host code -----------------------------------------------------------*/

typedef struct kiln_host_context kiln_host_context;

/* Runs `kernel` on every workgroup of an x * y * z grid and returns when
 * all of them have finished. `dispatch` is the kernel's row in the
 * module's dispatch table (the `dispatch` lines of its metadata, below),
 * which profiles count it under, or KILN_DISPATCH_UNKNOWN. Each workgroup gets
 * `scratch_bytes` of scratch (the compiler records a kernel's need on it, see
 * kiln.workgroup_scratch_bytes in the docs); when that memory cannot be
 * had, no workgroup runs and the call ends with an error, as when a buffer
 * of "kiln.allocate" cannot be. */
typedef void (*kiln_dispatch_fn)(kiln_host_context *context,
                                 kiln_kernel_fn kernel, uint32_t dispatch,
                                 uint32_t x, uint32_t y, uint32_t z,
                                 void *const *bindings,
                                 const uint64_t *constants,
                                 uint64_t scratch_bytes);
#define KILN_DISPATCH_UNKNOWN UINT32_MAX

/* Passed to every host function; the runtime's private state follows the
 * fields below. */
struct kiln_host_context {
  kiln_dispatch_fn dispatch;
  /* The functions the module imports from the runtime, in the order of
   * the `import` lines of its metadata; resolved when it was loaded. */
  void *const *imports;
  /* Which of the module's variants host code launches the kernels of: the
   * index of the `variant` line (below) the runtime chose when it loaded
   * the module; 0 in a module without `variant` lines. */
  uint32_t variant;
};

/*--- Imports -------------------------------------------------------------*/

/* A dense, row-major tensor (or a scalar, of rank 0) that host code hands
 * to an import. `element_type` is a kiln_element_type (kiln_runtime.h). */
typedef struct kiln_tensor_view {
  void *data;
  const int64_t *dims;
  int32_t rank;
  int32_t element_type;
} kiln_tensor_view;

/* The import "kiln.check": a test assertion that records its failure and
 * lets the program go on. */
typedef enum kiln_check_kind {
  KILN_CHECK_TRUE = 0,  /* every element of `actual` is nonzero */
  KILN_CHECK_FALSE = 1, /* every element of `actual` is zero */
  KILN_CHECK_EQ = 2,    /* same shape and bits (any NaN equals any NaN) */
  KILN_CHECK_ALMOST_EQ =
      3, /* |actual - expected| <= atol + rtol * |expected| */
} kiln_check_kind;

typedef struct kiln_check_args {
  int32_t kind; /* a kiln_check_kind */
  int32_t reserved;
  const char *location; /* where the check is in the program: file:line:col */
  kiln_tensor_view actual;
  kiln_tensor_view expected; /* unused by KILN_CHECK_TRUE and _FALSE */
  double atol, rtol;
} kiln_check_args;

typedef void (*kiln_check_fn)(kiln_host_context *context,
                              const kiln_check_args *args);
#define KILN_IMPORT_CHECK "kiln.check"

/* The import "kiln.allocate": every buffer host code allocates. Returns
 * room for `element_count` elements of `element_size` bytes each, aligned
 * to `alignment` bytes (a power of two, or 0) and to at least 64, which
 * free() releases. It never returns NULL: when the size overflows or
 * memory runs out, the runtime frees every buffer the call allocated and
 * ends the call with an error naming `location` (where the buffer is in
 * the program: file:line:col, or ""); the function does not go on. */
typedef void *(*kiln_allocate_fn)(kiln_host_context *context,
                                  int64_t element_count, int64_t element_size,
                                  int64_t alignment, const char *location);
#define KILN_IMPORT_ALLOCATE "kiln.allocate"
/* Instead of an element count, what host code passes when a dynamic size
 * of the buffer is negative, or when its sizes multiply past 2^63 - 1. */
#define KILN_ALLOCATE_NEGATIVE_SIZE (-1)
#define KILN_ALLOCATE_TOO_MANY_ELEMENTS (-2)

/* The import "kiln.free": releases a buffer of "kiln.allocate" the call no
 * longer needs (buffers it returns belong to the caller). */
typedef void (*kiln_free_fn)(kiln_host_context *context, void *allocation);
#define KILN_IMPORT_FREE "kiln.free"

/* The import "kiln.call_extern": calls the module's extern `index` (its
 * `extern` lines, from 0), a host function of a runtime extension, with
 * views of the call's operands and of the results host code allocated.
 * When the function fails, the runtime ends the call with an error naming
 * `location` and the function's message; the call does not go on. */
typedef void (*kiln_call_extern_fn)(kiln_host_context *context, uint32_t index,
                                    const kiln_tensor_view *args,
                                    int32_t arg_count,
                                    const kiln_tensor_view *results,
                                    int32_t result_count, const char *location);
#define KILN_IMPORT_CALL_EXTERN "kiln.call_extern"

/* The import "kiln.fail": a run-time check failed (kiln.assert). The
 * runtime frees every buffer the call allocated and ends the call with an
 * error made of `location` (file:line:col, or "") and `message`, in which
 * "{N}" stands for values[N] (N < count) as a signed decimal integer; the
 * function does not go on. */
typedef void (*kiln_fail_fn)(kiln_host_context *context, const char *location,
                             const char *message, const int64_t *values,
                             int32_t count);
#define KILN_IMPORT_FAIL "kiln.fail"

/* A memref descriptor of rank R, as MLIR lays it out:
 *   void *allocated; void *aligned; int64_t offset;
 *   int64_t sizes[R]; int64_t strides[R];
 * so (3 + 2 * R) 8-byte words. */
#define KILN_DESCRIPTOR_WORDS(rank) (3 + 2 * (rank))

/* An exported function. `inputs[i]` points to the descriptor of input i;
 * `outputs` points to the descriptors of all outputs, one after the other.
 * Output buffers come from "kiln.allocate" and are owned by the caller,
 * who frees `allocated` with free(). */
typedef void (*kiln_entry_fn)(kiln_host_context *context, void *const *inputs,
                              void *outputs);

/*--- Metadata ------------------------------------------------------------*/

/* Every module exports a NUL-terminated text under this symbol name:
 *
 *   kiln-module <KILN_MODULE_ABI_VERSION>
 *   target <triple> <cpu>
 *   features <comma-separated x86 features the code requires, or ->
 *   variant <backend> <cpu> <features, as above>
 *                                            (zero or more: 0, 1, ...)
 *   import <name>                            (zero or more, in order)
 *   extern <host|kernel> <name> <signature>  (zero or more, in order)
 *   dispatch <name> <flops> <bytes> <op> <loops> <element type>
 *                                            (zero or more: row 0, 1, ...)
 *   function <name> <entry symbol> <flops, 0 when unknown>
 *   input <element type> <rank> <dim>... [<name>]   (dim -1: dynamic)
 *   output <element type> <rank> <dim>... [<name>]
 *   end
 *
 * one `function` block per exported function. Element types are spelled as
 * in MLIR: f32, f16, bf16, f64, i1, i8, i16, i32, i64, ... An input or
 * output may end with its name (an ONNX graph's input and output names),
 * the bytes a word cannot hold (space, unprintable ones, '%') written as
 * %XX, two hex digits.
 *
 * `target` and `features` describe the host code, which every CPU the
 * module is for runs. `variant` lines describe the kernels: one per CPU
 * (and backend) the module was compiled for, none in a module whose
 * kernels are the host code's target's. With several, its kernels exist
 * once per variant, and the runtime runs
 * those of the variant this CPU can run that requires the most features
 * (the most specific one; the first such line on a tie). A module whose
 * variants this CPU can run none of does not load.
 *
 * An `extern` line names a function a runtime extension provides
 * (kiln_extension.h), with the signature the module calls it by: a host
 * function host code calls through "kiln.call_extern" by the line's index,
 * or a kernel function, whose address the runtime writes into the
 * module's pointer `__kiln_extern.<name>` for kernels to call through.
 * The runtime refuses a module whose externs its extensions do not all
 * provide, with those signatures.
 *
 * A `dispatch` line describes a kernel host code runs, for profiles: the
 * executable's name, the FLOPs and the bytes of its bindings of one run
 * (0 when not known), and its root op: the op's name, its loop sizes
 * (`8x16x32`, `?` for a dynamic size, `-` for none) and its result's
 * element type (`?` for the last three when not known). */
#define KILN_MODULE_INFO_SYMBOL "kiln_module_info"

/* Every x86 ISA feature LLVM 22 names (llvm/TargetParser/X86TargetParser.def),
 * and how the runtime finds out whether this CPU has it:
 *
 *   X(LLVM feature name, kind, leaf, subleaf, register (0 eax .. 3 edx),
 *     bit, register state the OS must save for its instructions)
 *
 * A module's `features` and `variant` lines list every feature of this table
 * its code was compiled for; a name the runtime does not know counts as
 * missing, so a module never runs code this CPU cannot execute.
 * unittests/Runtime/CPUFeaturesTest.cpp checks that the table holds every
 * feature of LLVM's list. */
enum {
  KILN_X86_CPUID = 0,    /* the CPUID bit at (leaf, subleaf, register, bit) */
  KILN_X86_BASELINE = 1, /* every x86-64 CPU has it */
  KILN_X86_CODEGEN = 2,  /* changes how code is generated, not which
                          * instructions it may use (retpolines) */
  KILN_X86_AVX10 = 3     /* AVX10 (CPUID 7.1 EDX bit 19) of at least version
                          * `bit` (CPUID 0x24 EBX bits 0-7) */
};
enum {
  KILN_X86_STATE_NONE = 0,
  KILN_X86_STATE_YMM = 1, /* XCR0 SSE and AVX state */
  KILN_X86_STATE_ZMM = 2, /* and the AVX-512 opmask and upper halves */
  KILN_X86_STATE_AMX = 3, /* XCR0 tile state, and Linux's permission */
  KILN_X86_STATE_APX = 4  /* XCR0 APX state */
};
#define KILN_X86_FEATURES(X)                                                   \
  X("64bit", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)               \
  X("cmov", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                \
  X("cx8", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                 \
  X("fxsr", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                \
  X("mmx", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                 \
  X("sse", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                 \
  X("sse2", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                \
  X("x87", KILN_X86_BASELINE, 0, 0, 0, 0, KILN_X86_STATE_NONE)                 \
  X("vzeroupper", KILN_X86_CODEGEN, 0, 0, 0, 0, KILN_X86_STATE_NONE)           \
  X("retpoline-external-thunk", KILN_X86_CODEGEN, 0, 0, 0, 0,                  \
    KILN_X86_STATE_NONE)                                                       \
  X("retpoline-indirect-branches", KILN_X86_CODEGEN, 0, 0, 0, 0,               \
    KILN_X86_STATE_NONE)                                                       \
  X("retpoline-indirect-calls", KILN_X86_CODEGEN, 0, 0, 0, 0,                  \
    KILN_X86_STATE_NONE)                                                       \
  X("lvi-cfi", KILN_X86_CODEGEN, 0, 0, 0, 0, KILN_X86_STATE_NONE)              \
  X("lvi-load-hardening", KILN_X86_CODEGEN, 0, 0, 0, 0, KILN_X86_STATE_NONE)   \
  /* Leaf 1. */                                                                \
  X("sse3", KILN_X86_CPUID, 1, 0, 2, 0, KILN_X86_STATE_NONE)                   \
  X("pclmul", KILN_X86_CPUID, 1, 0, 2, 1, KILN_X86_STATE_NONE)                 \
  X("ssse3", KILN_X86_CPUID, 1, 0, 2, 9, KILN_X86_STATE_NONE)                  \
  X("fma", KILN_X86_CPUID, 1, 0, 2, 12, KILN_X86_STATE_YMM)                    \
  X("cx16", KILN_X86_CPUID, 1, 0, 2, 13, KILN_X86_STATE_NONE)                  \
  X("sse4.1", KILN_X86_CPUID, 1, 0, 2, 19, KILN_X86_STATE_NONE)                \
  X("sse4.2", KILN_X86_CPUID, 1, 0, 2, 20, KILN_X86_STATE_NONE)                \
  X("crc32", KILN_X86_CPUID, 1, 0, 2, 20, KILN_X86_STATE_NONE)                 \
  X("movbe", KILN_X86_CPUID, 1, 0, 2, 22, KILN_X86_STATE_NONE)                 \
  X("popcnt", KILN_X86_CPUID, 1, 0, 2, 23, KILN_X86_STATE_NONE)                \
  X("aes", KILN_X86_CPUID, 1, 0, 2, 25, KILN_X86_STATE_NONE)                   \
  X("xsave", KILN_X86_CPUID, 1, 0, 2, 27, KILN_X86_STATE_NONE)                 \
  X("avx", KILN_X86_CPUID, 1, 0, 2, 28, KILN_X86_STATE_YMM)                    \
  X("f16c", KILN_X86_CPUID, 1, 0, 2, 29, KILN_X86_STATE_YMM)                   \
  X("rdrnd", KILN_X86_CPUID, 1, 0, 2, 30, KILN_X86_STATE_NONE)                 \
  /* Leaf 7, subleaf 0. */                                                     \
  X("fsgsbase", KILN_X86_CPUID, 7, 0, 1, 0, KILN_X86_STATE_NONE)               \
  X("sgx", KILN_X86_CPUID, 7, 0, 1, 2, KILN_X86_STATE_NONE)                    \
  X("bmi", KILN_X86_CPUID, 7, 0, 1, 3, KILN_X86_STATE_NONE)                    \
  X("avx2", KILN_X86_CPUID, 7, 0, 1, 5, KILN_X86_STATE_YMM)                    \
  X("bmi2", KILN_X86_CPUID, 7, 0, 1, 8, KILN_X86_STATE_NONE)                   \
  X("invpcid", KILN_X86_CPUID, 7, 0, 1, 10, KILN_X86_STATE_NONE)               \
  X("rtm", KILN_X86_CPUID, 7, 0, 1, 11, KILN_X86_STATE_NONE)                   \
  X("avx512f", KILN_X86_CPUID, 7, 0, 1, 16, KILN_X86_STATE_ZMM)                \
  X("evex512", KILN_X86_CPUID, 7, 0, 1, 16, KILN_X86_STATE_ZMM)                \
  X("avx512dq", KILN_X86_CPUID, 7, 0, 1, 17, KILN_X86_STATE_ZMM)               \
  X("rdseed", KILN_X86_CPUID, 7, 0, 1, 18, KILN_X86_STATE_NONE)                \
  X("adx", KILN_X86_CPUID, 7, 0, 1, 19, KILN_X86_STATE_NONE)                   \
  X("avx512ifma", KILN_X86_CPUID, 7, 0, 1, 21, KILN_X86_STATE_ZMM)             \
  X("clflushopt", KILN_X86_CPUID, 7, 0, 1, 23, KILN_X86_STATE_NONE)            \
  X("clwb", KILN_X86_CPUID, 7, 0, 1, 24, KILN_X86_STATE_NONE)                  \
  X("avx512cd", KILN_X86_CPUID, 7, 0, 1, 28, KILN_X86_STATE_ZMM)               \
  X("sha", KILN_X86_CPUID, 7, 0, 1, 29, KILN_X86_STATE_NONE)                   \
  X("avx512bw", KILN_X86_CPUID, 7, 0, 1, 30, KILN_X86_STATE_ZMM)               \
  X("avx512vl", KILN_X86_CPUID, 7, 0, 1, 31, KILN_X86_STATE_ZMM)               \
  X("avx512vbmi", KILN_X86_CPUID, 7, 0, 2, 1, KILN_X86_STATE_ZMM)              \
  X("pku", KILN_X86_CPUID, 7, 0, 2, 4, KILN_X86_STATE_NONE)                    \
  X("waitpkg", KILN_X86_CPUID, 7, 0, 2, 5, KILN_X86_STATE_NONE)                \
  X("avx512vbmi2", KILN_X86_CPUID, 7, 0, 2, 6, KILN_X86_STATE_ZMM)             \
  X("shstk", KILN_X86_CPUID, 7, 0, 2, 7, KILN_X86_STATE_NONE)                  \
  X("gfni", KILN_X86_CPUID, 7, 0, 2, 8, KILN_X86_STATE_NONE)                   \
  X("vaes", KILN_X86_CPUID, 7, 0, 2, 9, KILN_X86_STATE_YMM)                    \
  X("vpclmulqdq", KILN_X86_CPUID, 7, 0, 2, 10, KILN_X86_STATE_YMM)             \
  X("avx512vnni", KILN_X86_CPUID, 7, 0, 2, 11, KILN_X86_STATE_ZMM)             \
  X("avx512bitalg", KILN_X86_CPUID, 7, 0, 2, 12, KILN_X86_STATE_ZMM)           \
  X("avx512vpopcntdq", KILN_X86_CPUID, 7, 0, 2, 14, KILN_X86_STATE_ZMM)        \
  X("rdpid", KILN_X86_CPUID, 7, 0, 2, 22, KILN_X86_STATE_NONE)                 \
  X("kl", KILN_X86_CPUID, 7, 0, 2, 23, KILN_X86_STATE_NONE)                    \
  X("cldemote", KILN_X86_CPUID, 7, 0, 2, 25, KILN_X86_STATE_NONE)              \
  X("movdiri", KILN_X86_CPUID, 7, 0, 2, 27, KILN_X86_STATE_NONE)               \
  X("movdir64b", KILN_X86_CPUID, 7, 0, 2, 28, KILN_X86_STATE_NONE)             \
  X("enqcmd", KILN_X86_CPUID, 7, 0, 2, 29, KILN_X86_STATE_NONE)                \
  X("avx5124vnniw", KILN_X86_CPUID, 7, 0, 3, 2, KILN_X86_STATE_ZMM)            \
  X("avx5124fmaps", KILN_X86_CPUID, 7, 0, 3, 3, KILN_X86_STATE_ZMM)            \
  X("uintr", KILN_X86_CPUID, 7, 0, 3, 5, KILN_X86_STATE_NONE)                  \
  X("avx512vp2intersect", KILN_X86_CPUID, 7, 0, 3, 8, KILN_X86_STATE_ZMM)      \
  X("serialize", KILN_X86_CPUID, 7, 0, 3, 14, KILN_X86_STATE_NONE)             \
  X("tsxldtrk", KILN_X86_CPUID, 7, 0, 3, 16, KILN_X86_STATE_NONE)              \
  X("pconfig", KILN_X86_CPUID, 7, 0, 3, 18, KILN_X86_STATE_NONE)               \
  X("amx-bf16", KILN_X86_CPUID, 7, 0, 3, 22, KILN_X86_STATE_AMX)               \
  X("avx512fp16", KILN_X86_CPUID, 7, 0, 3, 23, KILN_X86_STATE_ZMM)             \
  X("amx-tile", KILN_X86_CPUID, 7, 0, 3, 24, KILN_X86_STATE_AMX)               \
  X("amx-int8", KILN_X86_CPUID, 7, 0, 3, 25, KILN_X86_STATE_AMX)               \
  /* Leaf 7, subleaf 1. */                                                     \
  X("sha512", KILN_X86_CPUID, 7, 1, 0, 0, KILN_X86_STATE_YMM)                  \
  X("sm3", KILN_X86_CPUID, 7, 1, 0, 1, KILN_X86_STATE_YMM)                     \
  X("sm4", KILN_X86_CPUID, 7, 1, 0, 2, KILN_X86_STATE_YMM)                     \
  X("raoint", KILN_X86_CPUID, 7, 1, 0, 3, KILN_X86_STATE_NONE)                 \
  X("avxvnni", KILN_X86_CPUID, 7, 1, 0, 4, KILN_X86_STATE_YMM)                 \
  X("avx512bf16", KILN_X86_CPUID, 7, 1, 0, 5, KILN_X86_STATE_ZMM)              \
  X("cmpccxadd", KILN_X86_CPUID, 7, 1, 0, 7, KILN_X86_STATE_NONE)              \
  X("amx-fp16", KILN_X86_CPUID, 7, 1, 0, 21, KILN_X86_STATE_AMX)               \
  X("hreset", KILN_X86_CPUID, 7, 1, 0, 22, KILN_X86_STATE_NONE)                \
  X("avxifma", KILN_X86_CPUID, 7, 1, 0, 23, KILN_X86_STATE_YMM)                \
  X("movrs", KILN_X86_CPUID, 7, 1, 0, 31, KILN_X86_STATE_NONE)                 \
  X("avxvnniint8", KILN_X86_CPUID, 7, 1, 3, 4, KILN_X86_STATE_YMM)             \
  X("avxneconvert", KILN_X86_CPUID, 7, 1, 3, 5, KILN_X86_STATE_YMM)            \
  X("amx-complex", KILN_X86_CPUID, 7, 1, 3, 8, KILN_X86_STATE_AMX)             \
  X("avxvnniint16", KILN_X86_CPUID, 7, 1, 3, 10, KILN_X86_STATE_YMM)           \
  X("prefetchi", KILN_X86_CPUID, 7, 1, 3, 14, KILN_X86_STATE_NONE)             \
  X("usermsr", KILN_X86_CPUID, 7, 1, 3, 15, KILN_X86_STATE_NONE)               \
  X("apxf", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                   \
  X("egpr", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                   \
  X("push2pop2", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)              \
  X("ppx", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                    \
  X("ndd", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                    \
  X("ccmp", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                   \
  X("nf", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                     \
  X("cf", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                     \
  X("zu", KILN_X86_CPUID, 7, 1, 3, 21, KILN_X86_STATE_APX)                     \
  X("avx10.1", KILN_X86_AVX10, 0, 0, 0, 1, KILN_X86_STATE_ZMM)                 \
  X("avx10.2", KILN_X86_AVX10, 0, 0, 0, 2, KILN_X86_STATE_ZMM)                 \
  /* Leaves 0xd, 0x14, 0x19, 0x1e. */                                          \
  X("xsaveopt", KILN_X86_CPUID, 0xd, 1, 0, 0, KILN_X86_STATE_YMM)              \
  X("xsavec", KILN_X86_CPUID, 0xd, 1, 0, 1, KILN_X86_STATE_YMM)                \
  X("xsaves", KILN_X86_CPUID, 0xd, 1, 0, 3, KILN_X86_STATE_YMM)                \
  X("ptwrite", KILN_X86_CPUID, 0x14, 0, 1, 4, KILN_X86_STATE_NONE)             \
  X("widekl", KILN_X86_CPUID, 0x19, 0, 1, 2, KILN_X86_STATE_NONE)              \
  X("amx-fp8", KILN_X86_CPUID, 0x1e, 1, 0, 4, KILN_X86_STATE_AMX)              \
  X("amx-tf32", KILN_X86_CPUID, 0x1e, 1, 0, 6, KILN_X86_STATE_AMX)             \
  X("amx-avx512", KILN_X86_CPUID, 0x1e, 1, 0, 7, KILN_X86_STATE_AMX)           \
  X("amx-movrs", KILN_X86_CPUID, 0x1e, 1, 0, 8, KILN_X86_STATE_AMX)            \
  /* Extended leaves. */                                                       \
  X("sahf", KILN_X86_CPUID, 0x80000001u, 0, 2, 0, KILN_X86_STATE_NONE)         \
  X("lzcnt", KILN_X86_CPUID, 0x80000001u, 0, 2, 5, KILN_X86_STATE_NONE)        \
  X("sse4a", KILN_X86_CPUID, 0x80000001u, 0, 2, 6, KILN_X86_STATE_NONE)        \
  X("prfchw", KILN_X86_CPUID, 0x80000001u, 0, 2, 8, KILN_X86_STATE_NONE)       \
  X("xop", KILN_X86_CPUID, 0x80000001u, 0, 2, 11, KILN_X86_STATE_YMM)          \
  X("lwp", KILN_X86_CPUID, 0x80000001u, 0, 2, 15, KILN_X86_STATE_NONE)         \
  X("fma4", KILN_X86_CPUID, 0x80000001u, 0, 2, 16, KILN_X86_STATE_YMM)         \
  X("tbm", KILN_X86_CPUID, 0x80000001u, 0, 2, 21, KILN_X86_STATE_NONE)         \
  X("mwaitx", KILN_X86_CPUID, 0x80000001u, 0, 2, 29, KILN_X86_STATE_NONE)      \
  X("clzero", KILN_X86_CPUID, 0x80000008u, 0, 1, 0, KILN_X86_STATE_NONE)       \
  X("rdpru", KILN_X86_CPUID, 0x80000008u, 0, 1, 4, KILN_X86_STATE_NONE)        \
  X("wbnoinvd", KILN_X86_CPUID, 0x80000008u, 0, 1, 9, KILN_X86_STATE_NONE)

/*--- The module file -----------------------------------------------------*/

/* A module file is the shared object followed by a trailer of
 * KILN_MODULE_TRAILER_SIZE bytes: the shared object's size in bytes and its
 * kiln_checksum, each a little-endian uint64, then the 8 bytes of
 * KILN_MODULE_TRAILER_MAGIC. The runtime checks the trailer and the ELF
 * structure before the dynamic loader sees the file, so that a truncated or
 * damaged module is an error instead of a crash inside dlopen. */
#define KILN_MODULE_TRAILER_MAGIC "KILNSUM1"
#define KILN_MODULE_TRAILER_SIZE 24

/* A 64-bit checksum of `size` bytes (FNV-1a over little-endian 64-bit
 * words in four interleaved lanes, then over the lanes, the tail and the
 * size): it finds damage, not tampering. */
static inline uint64_t kiln_checksum(const void *data, uint64_t size) {
  const unsigned char *bytes = (const unsigned char *)data;
  const uint64_t prime = 0x100000001b3ULL;
  uint64_t lanes[4] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL,
                       0x9ce484222325cbf2ULL, 0x2325cbf29ce48422ULL};
  uint64_t i = 0;
  for (; i + 32 <= size; i += 32)
    for (int lane = 0; lane < 4; ++lane) {
      uint64_t word = 0;
      for (int b = 7; b >= 0; --b)
        word = (word << 8) | bytes[i + 8 * lane + b];
      lanes[lane] = (lanes[lane] ^ word) * prime;
    }
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (int lane = 0; lane < 4; ++lane)
    hash = (hash ^ lanes[lane]) * prime;
  for (; i < size; ++i)
    hash = (hash ^ bytes[i]) * prime;
  return (hash ^ size) * prime;
}

/* Fills `trailer` with the trailer of the `size` bytes of shared object at
 * `data`: what serialization appends to it. */
static inline void
kiln_module_make_trailer(const void *data, uint64_t size,
                         unsigned char trailer[KILN_MODULE_TRAILER_SIZE]) {
  uint64_t checksum = kiln_checksum(data, size);
  memcpy(trailer, &size, 8);
  memcpy(trailer + 8, &checksum, 8);
  memcpy(trailer + 16, KILN_MODULE_TRAILER_MAGIC, 8);
}

/* Checks that `data` (`size` bytes) is a complete x86-64 ELF shared object:
 * its header, program headers, loadable segments, dynamic section and
 * section headers all lie within the bytes. Returns NULL when it is, else
 * a static text saying what is wrong. (In the runtime library; the
 * compiler uses it for plugins.) */
const char *kiln_check_elf_shared_object(const unsigned char *data,
                                         uint64_t size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_MODULE_ABI_H */
