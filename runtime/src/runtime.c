/*===- runtime.c - The runtime and its dispatch function -----------------===*
 *
 * A runtime owns the thread pool and the block cache; host code reaches it
 * through the kiln_host_context it passes to every host function.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

/* The number of cores this process may run on. */
static int available_cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int count = CPU_COUNT(&set);
    if (count > 0)
      return count;
  }
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  return online > 0 ? (int)online : 1;
}

kiln_error *kiln_runtime_create(const kiln_runtime_options *options,
                                kiln_runtime **out) {
  int threads = options ? options->threads : 0;
  if (threads < 0)
    return kiln_make_error("thread count must be positive (or 0 for one per "
                           "core), got %d",
                           threads);
  if (threads == 0)
    threads = available_cores();
  int64_t cache_bytes = options ? options->buffer_cache_bytes : 0;
  if (cache_bytes == 0)
    cache_bytes = KILN_DEFAULT_BUFFER_CACHE_BYTES;
  kiln_runtime *runtime = calloc(1, sizeof(*runtime));
  if (runtime)
    runtime->block_cache =
        kiln_block_cache_create(cache_bytes < 0 ? 0 : (size_t)cache_bytes);
  if (!runtime || !runtime->block_cache) {
    free(runtime);
    return kiln_make_error("out of memory creating the runtime");
  }
  kiln_error *error = kiln_thread_pool_create(threads, &runtime->pool);
  if (error) {
    kiln_block_cache_close(runtime->block_cache);
    free(runtime);
    return error;
  }
  pthread_mutex_init(&runtime->call_mutex, NULL);
  pthread_mutex_init(&runtime->extension_mutex, NULL);
  *out = runtime;
  return NULL;
}

void kiln_runtime_destroy(kiln_runtime *runtime) {
  if (!runtime)
    return;
  kiln_runtime_reset_checks(runtime);
  kiln_call_buffers_destroy(&runtime->buffers);
  kiln_thread_pool_destroy(runtime->pool);
  kiln_trace_destroy(runtime->trace);
  kiln_block_cache_close(runtime->block_cache);
  kiln_extensions_destroy(runtime);
  pthread_mutex_destroy(&runtime->extension_mutex);
  pthread_mutex_destroy(&runtime->call_mutex);
  free(runtime);
}

size_t kiln_runtime_cached_bytes(const kiln_runtime *runtime) {
  return kiln_block_cache_kept_bytes(runtime->block_cache);
}

void kiln_runtime_trim(kiln_runtime *runtime) {
  kiln_block_cache_trim(runtime->block_cache);
}

int kiln_runtime_thread_count(const kiln_runtime *runtime) {
  return kiln_thread_pool_size(runtime->pool);
}

kiln_error *kiln_runtime_set_profiling(kiln_runtime *runtime,
                                       kiln_profiling mode) {
  if (mode != KILN_PROFILING_OFF && mode != KILN_PROFILING_DISPATCHES &&
      mode != KILN_PROFILING_TRACE)
    return kiln_make_error("unknown profiling mode %d (0 off, 1 dispatches, "
                           "2 trace)",
                           (int)mode);
  kiln_error *error = NULL;
  pthread_mutex_lock(&runtime->call_mutex);
  if (mode == KILN_PROFILING_TRACE && !runtime->trace) {
    runtime->trace = kiln_trace_create(kiln_thread_pool_size(runtime->pool));
    if (!runtime->trace)
      error = kiln_make_error("out of memory starting a trace");
  }
  if (!error)
    runtime->profiling = mode;
  pthread_mutex_unlock(&runtime->call_mutex);
  return error;
}

kiln_profiling kiln_runtime_profiling(const kiln_runtime *runtime) {
  return runtime->profiling;
}
