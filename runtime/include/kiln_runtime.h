/*===- kiln_runtime.h - Kiln's runtime -----------------------------------===*
 *
 * Load a module kiln-compile wrote, list its functions and their
 * signatures, make buffers, and call functions. Dispatches run on a thread
 * pool over all cores. No LLVM or MLIR inside.
 *
 *   kiln_runtime *rt;       kiln_runtime_create(NULL, &rt);
 *   kiln_module *m;         kiln_module_load(rt, "model.so", &m);
 *   const kiln_function *f = kiln_module_find_function(m, "main");
 *   kiln_buffer *in[2] = ..., *out[1];
 *   kiln_function_call(f, in, 2, out, 1);
 *   ... kiln_buffer_data(out[0]) ...
 *   kiln_buffer_release(out[0]); kiln_module_unload(m);
 *   kiln_runtime_destroy(rt);
 *
 * Every function that can fail returns a kiln_error (NULL on success) that
 * the caller reads with kiln_error_message and frees with kiln_error_free.
 * Nothing in the runtime prints, exits or aborts on bad input.
 *
 * Thread safety: objects may be used from any thread; calls into the same
 * runtime are serialized (one function runs at a time per runtime).
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_H
#define KILN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*--- Errors --------------------------------------------------------------*/

typedef struct kiln_error kiln_error;

/* What went wrong, in one or more lines of text. */
const char *kiln_error_message(const kiln_error *error);
/* Frees `error`; NULL is fine. */
void kiln_error_free(kiln_error *error);

/*--- Element types -------------------------------------------------------*/

typedef enum kiln_element_type {
  KILN_ELEMENT_INVALID = 0,
  KILN_ELEMENT_I1, /* one byte per element, 0 or 1 */
  KILN_ELEMENT_I8,
  KILN_ELEMENT_I16,
  KILN_ELEMENT_I32,
  KILN_ELEMENT_I64,
  KILN_ELEMENT_F16,
  KILN_ELEMENT_BF16,
  KILN_ELEMENT_F32,
  KILN_ELEMENT_F64,
} kiln_element_type;

/* The MLIR spelling ("f32", "i8", ...), or "invalid". */
const char *kiln_element_type_name(kiln_element_type type);
/* The type spelled `name`, or KILN_ELEMENT_INVALID. */
kiln_element_type kiln_element_type_from_name(const char *name);
/* Bytes per element, 0 for KILN_ELEMENT_INVALID. */
size_t kiln_element_type_size(kiln_element_type type);

/*--- Runtime -------------------------------------------------------------*/

typedef struct kiln_runtime kiln_runtime;

/* What the runtime keeps of freed host buffers unless told otherwise. */
#define KILN_DEFAULT_BUFFER_CACHE_BYTES ((int64_t)1 << 30)

typedef struct kiln_runtime_options {
  /* Threads that run workgroups, the calling thread included; 0 means one
   * per core the process may run on. */
  int threads;
  /* The most bytes of freed host buffers of 64 KiB and more (outputs the
   * caller released, intermediates after their last use) the runtime keeps
   * to serve later calls without fresh pages; 0 means
   * KILN_DEFAULT_BUFFER_CACHE_BYTES, a negative value keeps none. */
  int64_t buffer_cache_bytes;
} kiln_runtime_options;

/* `options` may be NULL for the defaults. */
kiln_error *kiln_runtime_create(const kiln_runtime_options *options,
                                kiln_runtime **out);
/* Buffers the runtime's calls returned stay valid after it is destroyed. */
void kiln_runtime_destroy(kiln_runtime *runtime);
int kiln_runtime_thread_count(const kiln_runtime *runtime);
/* The bytes of freed host buffers the runtime keeps for later calls. */
size_t kiln_runtime_cached_bytes(const kiln_runtime *runtime);
/* Gives them back to the system. */
void kiln_runtime_trim(kiln_runtime *runtime);

/*--- Runtime extensions --------------------------------------------------*/

/* Functions modules call that the runtime does not have (kiln_extension.h).
 * Register an extension before loading the modules that need it: a module
 * resolves its externs when it loads. Modules must be unloaded before the
 * runtime is destroyed, which closes the extensions' libraries. */
struct kiln_extension;

/* Adds `extension`, which must stay valid while the runtime lives. Fails,
 * saying why, when it was built against another extension ABI, a symbol is
 * malformed, or a symbol's name is one an extension already provides. */
kiln_error *kiln_runtime_add_extension(kiln_runtime *runtime,
                                       const struct kiln_extension *extension);
/* Loads the shared object at `path` and adds the extension it exports
 * (KILN_EXTENSION_ENTRY); fails when the file is not one. */
kiln_error *kiln_runtime_load_extension(kiln_runtime *runtime,
                                        const char *path);
size_t kiln_runtime_extension_count(const kiln_runtime *runtime);
/* Extension `index`, or NULL past the last. */
const struct kiln_extension *
kiln_runtime_extension_at(const kiln_runtime *runtime, size_t index);

/*--- Buffers -------------------------------------------------------------*/

/* A dense, row-major tensor in host memory, reference counted. */
typedef struct kiln_buffer kiln_buffer;

#define KILN_MAX_RANK 16

/* A zero-filled buffer. */
kiln_error *kiln_buffer_create(kiln_element_type type, int32_t rank,
                               const int64_t *dims, kiln_buffer **out);
/* A buffer holding a copy of `data`, which must be exactly the buffer's
 * size in bytes. */
kiln_error *kiln_buffer_create_from_data(kiln_element_type type, int32_t rank,
                                         const int64_t *dims, const void *data,
                                         size_t data_size, kiln_buffer **out);
/* The alignment, in bytes, of the data of every buffer the runtime makes,
 * which compiled kernels rely on; kiln_buffer_wrap requires it. */
#define KILN_BUFFER_ALIGNMENT 64
/* A buffer over `data`, which the caller owns, used in place (no copy):
 * `data` must hold exactly the buffer's bytes, be aligned to
 * KILN_BUFFER_ALIGNMENT, be readable up to the next multiple of it (kernels
 * read whole vectors) and stay valid until the buffer is freed, when
 * `release(user)` is called (if `release` is not NULL). A function call
 * reads such a buffer as an input like any other; one that fails to wrap
 * calls nothing. */
kiln_error *kiln_buffer_wrap(kiln_element_type type, int32_t rank,
                             const int64_t *dims, void *data, size_t data_size,
                             void (*release)(void *user), void *user,
                             kiln_buffer **out);
void kiln_buffer_retain(kiln_buffer *buffer);
/* Drops one reference; the buffer is freed with the last. NULL is fine. */
void kiln_buffer_release(kiln_buffer *buffer);

kiln_element_type kiln_buffer_element_type(const kiln_buffer *buffer);
int32_t kiln_buffer_rank(const kiln_buffer *buffer);
const int64_t *kiln_buffer_dims(const kiln_buffer *buffer);
int64_t kiln_buffer_element_count(const kiln_buffer *buffer);
size_t kiln_buffer_byte_size(const kiln_buffer *buffer);
void *kiln_buffer_data(kiln_buffer *buffer);

/*--- Modules and functions -----------------------------------------------*/

typedef struct kiln_module kiln_module;
typedef struct kiln_function kiln_function;

/* Loads the module at `path`. Fails when the file is not a Kiln module,
 * was compiled against another module ABI, or needs CPU features this
 * machine lacks (for a module compiled for several CPUs: when this CPU can
 * run none of its variants); the error says which. */
kiln_error *kiln_module_load(kiln_runtime *runtime, const char *path,
                             kiln_module **out);

/* How to load a module; zero-initialize it for the defaults. */
typedef struct kiln_module_options {
  /* The CPU of the variant to run (as kiln_module_variant_at names it),
   * or BACKEND:CPU when several backends compiled for that CPU, instead of
   * the one the runtime picks; NULL to let it pick. Loading fails when the
   * module has no such variant or this CPU cannot run it. */
  const char *variant;
} kiln_module_options;

/* kiln_module_load with `options` (NULL for the defaults). */
kiln_error *kiln_module_load_with_options(kiln_runtime *runtime,
                                          const char *path,
                                          const kiln_module_options *options,
                                          kiln_module **out);
/* Unloads `module`; its functions must not be used afterwards. Buffers
 * it returned stay valid. NULL is fine. */
void kiln_module_unload(kiln_module *module);

/* The CPU the module's kernels that run here were compiled for (an LLVM
 * CPU name): the chosen variant's. */
const char *kiln_module_target_cpu(const kiln_module *module);

/* A variant of a module: its kernels compiled for one CPU. A module
 * compiled for one CPU has one. */
typedef struct kiln_module_variant {
  const char *backend;  /* the target backend, such as "llvm-cpu" */
  const char *cpu;      /* an LLVM CPU name */
  const char *features; /* the x86 features it requires, or "-" */
  int feature_count;    /* how many: the more, the more specific */
  /* The features it requires that this CPU lacks, comma-separated; "" when
   * this CPU can run it. */
  const char *missing;
  int chosen; /* 1 for the variant the module runs, else 0 */
} kiln_module_variant;
size_t kiln_module_variant_count(const kiln_module *module);
/* Variant `index` (all fields zero and NULL past the last). */
kiln_module_variant kiln_module_variant_at(const kiln_module *module,
                                           size_t index);
size_t kiln_module_function_count(const kiln_module *module);
const kiln_function *kiln_module_function_at(const kiln_module *module,
                                             size_t index);
/* The function called `name`, or NULL. */
const kiln_function *kiln_module_find_function(const kiln_module *module,
                                               const char *name);

#define KILN_DYNAMIC_DIM (-1)

/* The type of a function input or output; dims are KILN_DYNAMIC_DIM where
 * the size is only known at run time. */
typedef struct kiln_tensor_type {
  kiln_element_type element_type;
  int32_t rank;
  const int64_t *dims;
} kiln_tensor_type;

const char *kiln_function_name(const kiln_function *function);
size_t kiln_function_input_count(const kiln_function *function);
size_t kiln_function_output_count(const kiln_function *function);
kiln_tensor_type kiln_function_input(const kiln_function *function,
                                     size_t index);
kiln_tensor_type kiln_function_output(const kiln_function *function,
                                      size_t index);
/* The name of input or output `index` (an ONNX graph's input and output
 * names), owned by the module; NULL when it has none or past the last. */
const char *kiln_function_input_name(const kiln_function *function,
                                     size_t index);
const char *kiln_function_output_name(const kiln_function *function,
                                      size_t index);
/* Floating-point operations of one call, when the compiler could count
 * them (static contractions); 0 otherwise. */
double kiln_function_flops(const kiln_function *function);

/* Calls `function`. `inputs` must match its inputs in number, element type,
 * rank and static dims; `outputs` receives one new buffer per output, which
 * the caller releases. On error no output is set. When the function needs
 * a buffer that cannot be allocated (not enough memory, or a size that is
 * negative or past 64 bits), the call stops there with an error that says
 * which buffer, having freed the buffers it allocated; the runtime can be
 * called again. */
kiln_error *kiln_function_call(const kiln_function *function,
                               kiln_buffer *const *inputs, size_t input_count,
                               kiln_buffer **outputs, size_t output_count);

/*--- Checks --------------------------------------------------------------*/

/* Programs may assert things about their values (kiln.check, or IREE's
 * check.expect_* ops): a failing check does not stop the call; the runtime
 * counts the checks that ran and keeps a message for each failure, which
 * says where the check is and what differed. Counts and messages cover the
 * calls since the runtime was created or last reset. */
size_t kiln_runtime_checks_run(const kiln_runtime *runtime);
size_t kiln_runtime_check_failure_count(const kiln_runtime *runtime);
/* The message of failure `index` (in order), or NULL past the last. */
const char *kiln_runtime_check_failure(const kiln_runtime *runtime,
                                       size_t index);
void kiln_runtime_reset_checks(kiln_runtime *runtime);

/*--- Profiling -----------------------------------------------------------*/

/* The runtime can time every dispatch its calls run. Off, it costs one
 * branch per dispatch. */
typedef enum kiln_profiling {
  KILN_PROFILING_OFF = 0,
  /* Count every dispatch's runs and time: kiln_module_dispatch below. */
  KILN_PROFILING_DISPATCHES = 1,
  /* That, and record a trace: every call, every dispatch, and each
   * thread's share of its workgroups, with begin and end times. */
  KILN_PROFILING_TRACE = 2,
} kiln_profiling;

/* Takes effect from the next call (it waits for one in progress). */
kiln_error *kiln_runtime_set_profiling(kiln_runtime *runtime,
                                       kiln_profiling mode);
kiln_profiling kiln_runtime_profiling(const kiln_runtime *runtime);

/* A dispatch of a module: one kernel host code runs, whatever the number of
 * places that run it. */
typedef struct kiln_dispatch_profile {
  const char *name;         /* the executable, such as "main_dispatch_3" */
  const char *op;           /* its root op, such as "linalg.matmul", or "?" */
  const char *loops;        /* its loop sizes, "8x16x32" ("?" a dynamic one,
                               "-" none), or "?" */
  const char *element_type; /* its result's element type, or "-" or "?" */
  double flops;             /* of one run, 0 when not known */
  double bytes;             /* its bindings hold, 0 when not known */
  /* Since the module was loaded or its profile last reset, while the
   * runtime profiled: */
  uint64_t calls;
  uint64_t total_ns; /* wall time, from starting its first workgroup to the
                        end of its last */
} kiln_dispatch_profile;

size_t kiln_module_dispatch_count(const kiln_module *module);
/* Dispatch `index` (all fields zero and NULL past the last). */
kiln_dispatch_profile kiln_module_dispatch(const kiln_module *module,
                                           size_t index);
/* Zeroes every dispatch's calls and time (it waits for a call in progress). */
void kiln_module_reset_profile(kiln_module *module);

/* What a trace records. Times are CLOCK_MONOTONIC nanoseconds. */
typedef enum kiln_trace_kind {
  KILN_TRACE_CALL = 0,       /* a call of `function` */
  KILN_TRACE_DISPATCH = 1,   /* a run of `dispatch` of `module`, on the
                                calling thread */
  KILN_TRACE_WORKGROUPS = 2, /* a thread's share of a dispatch's
                                workgroups: `workgroups` of them */
} kiln_trace_kind;

typedef struct kiln_trace_event {
  int32_t kind;   /* a kiln_trace_kind */
  int32_t thread; /* 0 for the calling thread, 1 to threads - 1 for workers */
  uint64_t begin_ns, end_ns;
  const kiln_function *function; /* KILN_TRACE_CALL */
  const kiln_module *module;     /* the others */
  uint32_t dispatch;             /* its index in the module's dispatches, or
                                    KILN_DISPATCH_UNKNOWN_INDEX */
  uint32_t reserved;
  uint64_t workgroups; /* KILN_TRACE_DISPATCH: all of them */
} kiln_trace_event;
#define KILN_DISPATCH_UNKNOWN_INDEX UINT32_MAX

/* The events recorded while the runtime traced, since it was created or
 * its trace last reset: the calling thread's in order, then each worker's
 * (read them between calls, and before unloading the modules they name). A
 * trace keeps at most KILN_TRACE_MAX_EVENTS per thread; the ones after are
 * counted, not kept. */
#define KILN_TRACE_MAX_EVENTS ((size_t)1 << 18)
size_t kiln_runtime_trace_event_count(const kiln_runtime *runtime);
/* Event `index`, or NULL past the last. */
const kiln_trace_event *kiln_runtime_trace_event(const kiln_runtime *runtime,
                                                 size_t index);
size_t kiln_runtime_trace_dropped(const kiln_runtime *runtime);
void kiln_runtime_reset_trace(kiln_runtime *runtime);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_RUNTIME_H */
