/*===- memory.c - Host buffers of a call --------------------------------===*
 *
 * The "kiln.allocate" and "kiln.free" imports: every buffer a module's host
 * code uses comes from here. The runtime keeps the live buffers of the call
 * in progress, so that when one cannot be allocated it can free them all
 * and end the call with an error (a longjmp back to kiln_function_call),
 * instead of host code writing through a null pointer. Large buffers come
 * from the runtime's block cache and go back to it (block_cache.c).
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Every buffer is aligned to at least this many bytes: a cache line, and
 * the widest vector registers the kernels use. */
enum { kMinimumAlignment = 64 };

void kiln_call_fail(kiln_call_context *call, const char *format, ...) {
  kiln_call_buffers *buffers = &call->runtime->buffers;
  va_list args;
  va_start(args, format);
  vsnprintf(buffers->failure, sizeof(buffers->failure), format, args);
  va_end(args);
  longjmp(*call->unwind, 1);
}

static const char *describe_location(const char *location) {
  return location && *location ? location : "(unknown location)";
}

void *kiln_allocate_import(kiln_host_context *context, int64_t element_count,
                           int64_t element_size, int64_t alignment,
                           const char *location) {
  kiln_call_context *call = (kiln_call_context *)context;
  kiln_call_buffers *buffers = &call->runtime->buffers;
  const char *where = describe_location(location);
  if (element_count == KILN_ALLOCATE_NEGATIVE_SIZE)
    kiln_call_fail(call, "%s: a buffer with a negative dimension", where);
  if (element_count == KILN_ALLOCATE_TOO_MANY_ELEMENTS)
    kiln_call_fail(call, "%s: a buffer of more than 2^63 - 1 elements", where);
  if (element_count < 0 || element_size <= 0)
    kiln_call_fail(
        call,
        "%s: a buffer of %lld elements of %lld bytes each is not a valid "
        "size",
        where, (long long)element_count, (long long)element_size);
  int64_t bytes;
  if (__builtin_mul_overflow(element_count, element_size, &bytes))
    kiln_call_fail(
        call,
        "%s: a buffer of %lld elements of %lld bytes each is larger than "
        "memory can be",
        where, (long long)element_count, (long long)element_size);
  if (alignment < 0 || (alignment & (alignment - 1)) != 0)
    kiln_call_fail(call, "%s: buffer alignment %lld is not a power of two",
                   where, (long long)alignment);
  if (alignment < kMinimumAlignment)
    alignment = kMinimumAlignment;

  if (buffers->count == buffers->capacity) {
    size_t capacity = buffers->capacity ? 2 * buffers->capacity : 16;
    kiln_host_block *grown =
        realloc(buffers->items, capacity * sizeof(*buffers->items));
    if (!grown)
      kiln_call_fail(call, "%s: out of memory keeping track of %zu buffers",
                     where, buffers->count + 1);
    buffers->items = grown;
    buffers->capacity = capacity;
  }
  void *allocation = NULL;
  size_t capacity = kiln_block_cache_class((size_t)bytes, (size_t)alignment);
  if (capacity) {
    allocation = kiln_block_cache_take(call->runtime->block_cache, capacity);
  } else {
    /* Zero-sized buffers get a distinct byte too, so every buffer is a
     * pointer free() takes. */
    int status = posix_memalign(&allocation, (size_t)alignment,
                                bytes > 0 ? (size_t)bytes : 1);
    if (status != 0)
      allocation = NULL;
  }
  if (!allocation)
    kiln_call_fail(call, "%s: out of memory allocating a buffer of %lld bytes",
                   where, (long long)bytes);
  buffers->items[buffers->count++] = (kiln_host_block){allocation, capacity};
  return allocation;
}

void kiln_release_host_block(kiln_block_cache *cache, void *allocation,
                             size_t capacity) {
  if (capacity)
    kiln_block_cache_give(cache, allocation, capacity);
  else
    free(allocation);
}

void kiln_free_import(kiln_host_context *context, void *allocation) {
  if (!allocation)
    return;
  kiln_runtime *runtime = ((kiln_call_context *)context)->runtime;
  kiln_call_buffers *buffers = &runtime->buffers;
  /* Buffers die mostly in the reverse order of their birth. */
  for (size_t i = buffers->count; i-- > 0;)
    if (buffers->items[i].allocation == allocation) {
      size_t capacity = buffers->items[i].capacity;
      buffers->items[i] = buffers->items[--buffers->count];
      kiln_release_host_block(runtime->block_cache, allocation, capacity);
      return;
    }
  /* Not a buffer of this call: a module bug; leaking it is safer than
   * freeing what may not be ours. */
}

kiln_error *kiln_call_end(kiln_runtime *runtime, const char *function_name,
                          void *const *results, size_t result_count,
                          size_t *result_capacities) {
  kiln_call_buffers *buffers = &runtime->buffers;
  kiln_error *error = NULL;
  if (buffers->failure[0])
    error =
        kiln_make_error("'%s' stopped: %s", function_name, buffers->failure);
  /* Free what the call allocated, except the results it hands back (none
   * when it failed). */
  for (size_t r = 0; r < result_count; ++r)
    result_capacities[r] = 0;
  for (size_t i = 0; i < buffers->count; ++i) {
    kiln_host_block block = buffers->items[i];
    bool returned = false;
    for (size_t r = 0; !error && r < result_count; ++r)
      if (results[r] == block.allocation) {
        result_capacities[r] = block.capacity;
        returned = true;
      }
    if (!returned)
      kiln_release_host_block(runtime->block_cache, block.allocation,
                              block.capacity);
  }
  buffers->count = 0;
  buffers->failure[0] = '\0';
  return error;
}

void kiln_call_buffers_destroy(kiln_call_buffers *buffers) {
  free(buffers->items);
  buffers->items = NULL;
  buffers->count = buffers->capacity = 0;
}
