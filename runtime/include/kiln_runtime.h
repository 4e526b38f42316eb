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
 * machine lacks; the error says which. */
kiln_error *kiln_module_load(kiln_runtime *runtime, const char *path,
                             kiln_module **out);
/* Unloads `module`; its functions must not be used afterwards. Buffers
 * it returned stay valid. NULL is fine. */
void kiln_module_unload(kiln_module *module);

/* The CPU the module was compiled for (an LLVM CPU name). */
const char *kiln_module_target_cpu(const kiln_module *module);
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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* KILN_RUNTIME_H */
