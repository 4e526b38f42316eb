/*===- internal.h - Shared internals of the runtime ----------------------===*
 *
 * Declarations the runtime's source files share; not part of the API.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_INTERNAL_H
#define KILN_RUNTIME_INTERNAL_H

#include "kiln_module_abi.h"
#include "kiln_runtime.h"

#include <pthread.h>
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
 * included, and returns when all have finished. */
void kiln_thread_pool_run(kiln_thread_pool *pool, kiln_kernel_fn kernel,
                          const kiln_dispatch_state *state);

/*--- Runtime -------------------------------------------------------------*/

struct kiln_runtime {
  kiln_thread_pool *pool;
  /* One function call at a time per runtime. */
  pthread_mutex_t call_mutex;
  /* What the checks of the calls since the last reset found. */
  size_t checks_run;
  size_t check_failure_count;
  char **check_failures;
};

/* The context host functions receive: the ABI's part, then the runtime. */
typedef struct kiln_call_context {
  kiln_host_context base;
  kiln_runtime *runtime;
} kiln_call_context;

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

/*--- Buffers -------------------------------------------------------------*/

/* A buffer whose storage (`allocation`, released with free()) was made by
 * someone else; `data` points into it. Takes ownership of `allocation`. */
kiln_buffer *kiln_buffer_adopt(kiln_element_type type, int32_t rank,
                               const int64_t *dims, void *allocation,
                               void *data);

/*--- CPU features --------------------------------------------------------*/

/* Writes to `missing` (comma-separated) every feature of `features`
 * (comma-separated LLVM names) this CPU lacks, and returns how many. An
 * unknown name counts as missing. */
int kiln_find_missing_cpu_features(const char *features, char *missing,
                                   size_t missing_size);

#endif /* KILN_RUNTIME_INTERNAL_H */
