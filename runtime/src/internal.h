/*===- internal.h - Shared internals of the runtime ----------------------===*
 *
 * Declarations the runtime's source files share; not part of the API.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_INTERNAL_H
#define KILN_RUNTIME_INTERNAL_H

#include "kiln_extension.h"
#include "kiln_module_abi.h"
#include "kiln_runtime.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>

/* An error with a printf-style message. */
kiln_error *kiln_make_error(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/*--- Thread pool ---------------------------------------------------------*/

typedef struct kiln_thread_pool kiln_thread_pool;

kiln_error *kiln_thread_pool_create(int threads, kiln_thread_pool **out);
void kiln_thread_pool_destroy(kiln_thread_pool *pool);
int kiln_thread_pool_size(const kiln_thread_pool *pool);
/* Runs `kernel` on every workgroup of the grid, the calling thread
 * included, each with `scratch_bytes` of its thread's scratch, and returns
 * when all have finished. Returns false, having run nothing, when that
 * scratch cannot be allocated. */
typedef struct kiln_trace kiln_trace;
/* With `trace` (not NULL), each thread records a KILN_TRACE_WORKGROUPS
 * event of its share in it, naming `module`'s dispatch `dispatch`. */
bool kiln_thread_pool_run(kiln_thread_pool *pool, kiln_kernel_fn kernel,
                          const kiln_dispatch_state *state,
                          uint64_t scratch_bytes, kiln_trace *trace,
                          const kiln_module *module, uint32_t dispatch);

/*--- Traces (trace.c) ----------------------------------------------------*/

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t kiln_now_ns(void);
/* A trace of `threads` threads' events; NULL when out of memory. */
kiln_trace *kiln_trace_create(int threads);
void kiln_trace_destroy(kiln_trace *trace);
/* Appends `event` to its thread's list (only that thread may, while a call
 * runs), or counts it dropped. */
void kiln_trace_record(kiln_trace *trace, const kiln_trace_event *event);
/* Forgets every event and drop. */
void kiln_trace_clear(kiln_trace *trace);

/*--- Block cache (block_cache.c) -----------------------------------------*/

/* Large host blocks kept from one call to the next, so that reusing them
 * costs no page faults. Thread-safe; reference counted. */
typedef struct kiln_block_cache kiln_block_cache;

/* A cache that keeps at most `limit` bytes; NULL when out of memory. */
kiln_block_cache *kiln_block_cache_create(size_t limit);
/* The capacity the cache gives a block of `bytes` aligned to `alignment`
 * (its size class), or 0 when blocks like that are left to malloc. */
size_t kiln_block_cache_class(size_t bytes, size_t alignment);
/* A block of `capacity` bytes (a size class), kept or new and aligned to a
 * page; NULL when out of memory. */
void *kiln_block_cache_take(kiln_block_cache *cache, size_t capacity);
/* Hands back a block `take` gave: kept for the next `take` of its class,
 * or freed when the cache is closed or keeping it would pass the limit
 * (older blocks are freed first to make room). */
void kiln_block_cache_give(kiln_block_cache *cache, void *block,
                           size_t capacity);
size_t kiln_block_cache_kept_bytes(kiln_block_cache *cache);
/* Frees every block kept. */
void kiln_block_cache_trim(kiln_block_cache *cache);
void kiln_block_cache_retain(kiln_block_cache *cache);
void kiln_block_cache_release(kiln_block_cache *cache);
/* The owner is done: frees what is kept, keeps nothing from now on, and
 * drops the owner's reference. NULL is fine. */
void kiln_block_cache_close(kiln_block_cache *cache);

/*--- Runtime -------------------------------------------------------------*/

/* A host block of a call: `capacity` is its size class in the runtime's
 * block cache, or 0 when it came from malloc and goes back with free(). */
typedef struct kiln_host_block {
  void *allocation;
  size_t capacity;
} kiln_host_block;

/* The live host buffers of the call in progress (memory.c). */
typedef struct kiln_call_buffers {
  kiln_host_block *items;
  size_t count, capacity;
  /* Why a buffer could not be allocated; empty while all went well. */
  char failure[512];
} kiln_call_buffers;

struct kiln_runtime {
  kiln_thread_pool *pool;
  /* One function call at a time per runtime. */
  pthread_mutex_t call_mutex;
  /* What the checks of the calls since the last reset found. */
  size_t checks_run;
  size_t check_failure_count;
  char **check_failures;
  /* The buffers of the call in progress, under call_mutex. */
  kiln_call_buffers buffers;
  /* Where large host buffers go when they die, for the next call. */
  kiln_block_cache *block_cache;
  /* Changed under call_mutex. */
  kiln_profiling profiling;
  /* Made when tracing starts; NULL before. */
  kiln_trace *trace;
  /* The runtime extensions modules may call into (extension.c), under
   * extension_mutex. */
  pthread_mutex_t extension_mutex;
  size_t extension_count;
  struct kiln_extension_entry *extensions;
};

/* The context host functions receive: the ABI's part, then the runtime. */
typedef struct kiln_call_context {
  kiln_host_context base;
  kiln_runtime *runtime;
  kiln_module *module;
  /* Where a call that cannot go on returns to (kiln_function_call). */
  jmp_buf *unwind;
} kiln_call_context;

/*--- Modules and functions (module.c, call.c) --------------------------*/

typedef struct tensor_info {
  kiln_element_type element_type;
  int32_t rank;
  int64_t dims[KILN_MAX_RANK];
  char *name; /* NULL when the module gives none */
} tensor_info;

struct kiln_function {
  kiln_module *module;
  char *name;
  kiln_entry_fn entry;
  double flops;
  size_t input_count, output_count;
  tensor_info *inputs, *outputs;
};

/* A row of the module's dispatch table, and its profile. */
typedef struct dispatch_info {
  char *name, *op, *loops, *element_type;
  double flops, bytes;
  uint64_t calls, total_ns;
} dispatch_info;

/* A `variant` line of the metadata, and whether this CPU can run it. */
typedef struct variant_info {
  char *backend, *cpu, *features;
  int feature_count;
  char *missing; /* "" when this CPU has every feature */
} variant_info;

/* An `extern` line of the metadata, resolved. */
typedef struct extern_info {
  char *name;
  int32_t kind; /* a kiln_extension_kind */
  void *function;
  void *user_data;
} extern_info;

struct kiln_module {
  kiln_runtime *runtime;
  /* The `extern` lines, in order: what host code's "kiln.call_extern"
   * indexes. */
  size_t extern_count;
  extern_info *externs;
  /* The `variant` lines, or one made of `target` and `features`. */
  size_t variant_count;
  variant_info *variants;
  /* The one host code runs: kiln_host_context's `variant`. */
  uint32_t chosen_variant;
  size_t dispatch_count;
  dispatch_info *dispatches;
  void *handle;
  char *target_cpu;
  /* The `features` line: what host code needs. */
  char *host_features;
  size_t function_count;
  kiln_function *functions;
  /* The functions the module imports, in its metadata's order. */
  size_t import_count;
  void **imports;
};

/*--- Module files (module.c) --------------------------------------------*/

/* What is wrong with `data` (`size` bytes that start with the ELF magic) as
 * a module file, or NULL: its trailer, checksum and ELF structure. */
const char *kiln_check_module_bytes(const unsigned char *data, uint64_t size);

/* Parses the metadata text `text` as kiln_module_load would, without a
 * shared object behind it (entry points are looked up in the process):
 * for tests and fuzzing. */
kiln_error *kiln_module_check_info(kiln_runtime *runtime, const char *text);

/*--- Imports -------------------------------------------------------------*/

/* The "kiln.check" import (check.c). */
void kiln_check_import(kiln_host_context *context, const kiln_check_args *args);

/* The "kiln.fail" import (call.c): ends the call with a check's error. */
void kiln_fail_import(kiln_host_context *context, const char *location,
                      const char *message, const int64_t *values, int32_t count)
    __attribute__((noreturn));

/* The "kiln.call_extern" import (extension.c). */
void kiln_call_extern_import(kiln_host_context *context, uint32_t index,
                             const kiln_tensor_view *args, int32_t arg_count,
                             const kiln_tensor_view *results,
                             int32_t result_count, const char *location);

/* Resolves the module's extern `name` of `kind` (a kiln_extension_kind)
 * and `signature` against the runtime's extensions (extension.c). */
kiln_error *kiln_resolve_extern(kiln_runtime *runtime, const char *kind_word,
                                const char *name, const char *signature,
                                extern_info *out);
/* Frees the runtime's extensions and closes their libraries. */
void kiln_extensions_destroy(kiln_runtime *runtime);

/* The "kiln.allocate" and "kiln.free" imports (memory.c). */
void *kiln_allocate_import(kiln_host_context *context, int64_t element_count,
                           int64_t element_size, int64_t alignment,
                           const char *location);
void kiln_free_import(kiln_host_context *context, void *allocation);

/* Ends the call in progress on `runtime`: frees every buffer it allocated
 * except `results` (the allocations its outputs point to; the capacity of
 * each in the block cache goes to `result_capacities`, 0 for one that did
 * not come from it), and returns the error that stopped it, or NULL. */
kiln_error *kiln_call_end(kiln_runtime *runtime, const char *function_name,
                          void *const *results, size_t result_count,
                          size_t *result_capacities);

/* Gives `allocation` back to `cache` when `capacity` says it came from
 * there, or frees it. */
void kiln_release_host_block(kiln_block_cache *cache, void *allocation,
                             size_t capacity);

/* Ends the call in progress with an error: `format` says why. Frees its
 * buffers through kiln_call_end. */
void kiln_call_fail(kiln_call_context *call, const char *format, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* Releases what the runtime kept to track buffers. */
void kiln_call_buffers_destroy(kiln_call_buffers *buffers);

/*--- Buffers -------------------------------------------------------------*/

/* A buffer whose storage (`allocation`) was made by someone else; `data`
 * points into it. Takes ownership of `allocation`, which goes back to
 * `cache` (retained until then) when `capacity` is not 0, else to free().
 * NULL when out of memory, having released nothing. */
kiln_buffer *kiln_buffer_adopt(kiln_element_type type, int32_t rank,
                               const int64_t *dims, void *allocation,
                               void *data, kiln_block_cache *cache,
                               size_t capacity);

/*--- CPU features --------------------------------------------------------*/

/* Writes to `missing` (comma-separated) every feature of `features`
 * (comma-separated LLVM names) this CPU lacks, and returns how many. An
 * unknown name counts as missing. */
int kiln_find_missing_cpu_features(const char *features, char *missing,
                                   size_t missing_size);

/* Whether `name` is a feature of KILN_X86_FEATURES (for tests). */
bool kiln_cpu_feature_known(const char *name);

#endif /* KILN_RUNTIME_INTERNAL_H */
