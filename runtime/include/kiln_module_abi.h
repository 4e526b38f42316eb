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

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever anything in this header changes. A module records the
 * version it was compiled against; the runtime refuses other versions. */
#define KILN_MODULE_ABI_VERSION 2

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

/* A kernel runs one workgroup: (x, y, z) is its id. */
typedef void (*kiln_kernel_fn)(const kiln_dispatch_state *state, uint32_t x,
                               uint32_t y, uint32_t z);

/*--- Host code -----------------------------------------------------------*/

typedef struct kiln_host_context kiln_host_context;

/* Runs `kernel` on every workgroup of an x * y * z grid and returns when
 * all of them have finished. */
typedef void (*kiln_dispatch_fn)(kiln_host_context *context,
                                 kiln_kernel_fn kernel, uint32_t x, uint32_t y,
                                 uint32_t z, void *const *bindings,
                                 const uint64_t *constants);

/* Passed to every host function; the runtime's private state follows the
 * fields below. */
struct kiln_host_context {
  kiln_dispatch_fn dispatch;
  /* The functions the module imports from the runtime, in the order of
   * the `import` lines of its metadata; resolved when it was loaded. */
  void *const *imports;
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

/* A memref descriptor of rank R, as MLIR lays it out:
 *   void *allocated; void *aligned; int64_t offset;
 *   int64_t sizes[R]; int64_t strides[R];
 * so (3 + 2 * R) 8-byte words. */
#define KILN_DESCRIPTOR_WORDS(rank) (3 + 2 * (rank))

/* An exported function. `inputs[i]` points to the descriptor of input i;
 * `outputs` points to the descriptors of all outputs, one after the other.
 * Output buffers are allocated with malloc and owned by the caller, who
 * frees `allocated` with free(). */
typedef void (*kiln_entry_fn)(kiln_host_context *context, void *const *inputs,
                              void *outputs);

/*--- Metadata ------------------------------------------------------------*/

/* Every module exports a NUL-terminated text under this symbol name:
 *
 *   kiln-module <KILN_MODULE_ABI_VERSION>
 *   target <triple> <cpu>
 *   features <comma-separated x86 features the code requires, or ->
 *   import <name>                            (zero or more, in order)
 *   function <name> <entry symbol> <flops, 0 when unknown>
 *   input <element type> <rank> <dim>...     (dim -1: dynamic)
 *   output <element type> <rank> <dim>...
 *   end
 *
 * one `function` block per exported function. Element types are spelled as
 * in MLIR: f32, f16, bf16, f64, i1, i8, i16, i32, i64, ... */
#define KILN_MODULE_INFO_SYMBOL "kiln_module_info"

/* The x86 features a module may require, and where CPUID reports them:
 * X(LLVM feature name, leaf, subleaf, register (0 eax .. 3 edx), bit). A
 * module lists only these; the runtime checks each against the CPU. */
#define KILN_X86_FEATURES(X)                                                   \
  X("sse3", 1, 0, 2, 0)                                                        \
  X("pclmul", 1, 0, 2, 1)                                                      \
  X("ssse3", 1, 0, 2, 9)                                                       \
  X("fma", 1, 0, 2, 12)                                                        \
  X("sse4.1", 1, 0, 2, 19)                                                     \
  X("sse4.2", 1, 0, 2, 20)                                                     \
  X("movbe", 1, 0, 2, 22)                                                      \
  X("popcnt", 1, 0, 2, 23)                                                     \
  X("aes", 1, 0, 2, 25)                                                        \
  X("avx", 1, 0, 2, 28)                                                        \
  X("f16c", 1, 0, 2, 29)                                                       \
  X("sse2", 1, 0, 3, 26)                                                       \
  X("bmi", 7, 0, 1, 3)                                                         \
  X("avx2", 7, 0, 1, 5)                                                        \
  X("bmi2", 7, 0, 1, 8)                                                        \
  X("avx512f", 7, 0, 1, 16)                                                    \
  X("avx512dq", 7, 0, 1, 17)                                                   \
  X("adx", 7, 0, 1, 19)                                                        \
  X("avx512ifma", 7, 0, 1, 21)                                                 \
  X("avx512cd", 7, 0, 1, 28)                                                   \
  X("sha", 7, 0, 1, 29)                                                        \
  X("avx512bw", 7, 0, 1, 30)                                                   \
  X("avx512vl", 7, 0, 1, 31)                                                   \
  X("avx512vbmi", 7, 0, 2, 1)                                                  \
  X("avx512vbmi2", 7, 0, 2, 6)                                                 \
  X("gfni", 7, 0, 2, 8)                                                        \
  X("vaes", 7, 0, 2, 9)                                                        \
  X("vpclmulqdq", 7, 0, 2, 10)                                                 \
  X("avx512vnni", 7, 0, 2, 11)                                                 \
  X("avx512bitalg", 7, 0, 2, 12)                                               \
  X("avx512vpopcntdq", 7, 0, 2, 14)                                            \
  X("avx512fp16", 7, 0, 3, 23)                                                 \
  X("avxvnni", 7, 1, 0, 4)                                                     \
  X("avx512bf16", 7, 1, 0, 5)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_MODULE_ABI_H */
