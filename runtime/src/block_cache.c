/*===- block_cache.c - Host memory kept from one call to the next --------===*
 *
 * Fresh memory from the system costs a page fault per page on first touch
 * (about 13 us per 4 KiB page on a Zen 5 VM: a 4 MiB output cost 13 ms, as
 * much as the 1024^3 matmul that wrote it), and glibc hands large blocks
 * back to the system when they are freed. So the runtime keeps the large
 * blocks its calls freed (intermediates at their last use, outputs when
 * the caller releases them) and gives them to the next allocation of the
 * same size class, up to a limit: blocks of a page and more (smaller ones
 * are left to malloc).
 *
 * The cache is reference counted: the runtime holds one reference and
 * every buffer whose storage came from the cache another, so a buffer may
 * outlive its runtime; once the runtime is gone (closed), blocks given
 * back are freed instead of kept.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdint.h>
#include <stdlib.h>

enum {
  /* Below this, malloc serves from its heap. Blocks of a page and more
   * are kept here too: freed at the top of malloc's heap, they are handed
   * back to the system once more than 128 KiB are free there, and the next
   * call faults their pages in again. The intermediates of a model with
   * dynamic sizes are allocated at every call: PP-OCR's direction
   * classifier (about a hundred blocks of 1-64 KiB a call) spent 6% of
   * its time in page faults. */
  kSmallestCachedBytes = 4096,
  /* Every cached block starts on a page. */
  kBlockAlignment = 4096,
};

typedef struct kept_block {
  void *block;
  size_t capacity;
} kept_block;

struct kiln_block_cache {
  atomic_size_t references;
  pthread_mutex_t mutex;
  /* Under `mutex`: the blocks kept, oldest first, and their bytes. */
  kept_block *kept;
  size_t kept_count, kept_capacity, kept_bytes;
  size_t limit;
  bool closed;
};

kiln_block_cache *kiln_block_cache_create(size_t limit) {
  kiln_block_cache *cache = calloc(1, sizeof(*cache));
  if (!cache)
    return NULL;
  atomic_init(&cache->references, 1);
  pthread_mutex_init(&cache->mutex, NULL);
  cache->limit = limit;
  return cache;
}

size_t kiln_block_cache_class(size_t bytes, size_t alignment) {
  if (bytes < kSmallestCachedBytes || alignment > kBlockAlignment)
    return 0;
  /* A multiple of an eighth of the largest power of two not above
   * `bytes` (at most 12.5% more than asked from 32 KiB) and of a page (at
   * most twice what is asked below that). */
  size_t step = ((size_t)1 << (63 - __builtin_clzll(bytes))) / 8;
  if (step < kBlockAlignment)
    step = kBlockAlignment;
  if (bytes > SIZE_MAX - step)
    return 0;
  return (bytes + step - 1) / step * step;
}

/* Frees kept blocks, oldest first, until `room` more bytes fit under the
 * limit. Under `cache->mutex`. */
static void make_room(kiln_block_cache *cache, size_t room) {
  size_t evicted = 0;
  while (evicted < cache->kept_count &&
         cache->kept_bytes > cache->limit - room) {
    free(cache->kept[evicted].block);
    cache->kept_bytes -= cache->kept[evicted].capacity;
    ++evicted;
  }
  cache->kept_count -= evicted;
  for (size_t i = 0; i < cache->kept_count; ++i)
    cache->kept[i] = cache->kept[i + evicted];
}

void *kiln_block_cache_take(kiln_block_cache *cache, size_t capacity) {
  pthread_mutex_lock(&cache->mutex);
  /* The most recently kept block of the class: its lines may still be in
   * a cache. */
  for (size_t i = cache->kept_count; i-- > 0;) {
    if (cache->kept[i].capacity != capacity)
      continue;
    void *block = cache->kept[i].block;
    cache->kept_bytes -= capacity;
    for (size_t j = i + 1; j < cache->kept_count; ++j)
      cache->kept[j - 1] = cache->kept[j];
    --cache->kept_count;
    pthread_mutex_unlock(&cache->mutex);
    return block;
  }
  pthread_mutex_unlock(&cache->mutex);
  void *block = NULL;
  if (posix_memalign(&block, kBlockAlignment, capacity) != 0)
    return NULL;
  return block;
}

void kiln_block_cache_give(kiln_block_cache *cache, void *block,
                           size_t capacity) {
  pthread_mutex_lock(&cache->mutex);
  bool keep = !cache->closed && capacity <= cache->limit;
  if (keep) {
    make_room(cache, capacity);
    if (cache->kept_count == cache->kept_capacity) {
      size_t grown_capacity =
          cache->kept_capacity ? 2 * cache->kept_capacity : 16;
      kept_block *grown =
          realloc(cache->kept, grown_capacity * sizeof(*cache->kept));
      keep = grown != NULL;
      if (grown) {
        cache->kept = grown;
        cache->kept_capacity = grown_capacity;
      }
    }
  }
  if (keep) {
    cache->kept[cache->kept_count++] = (kept_block){block, capacity};
    cache->kept_bytes += capacity;
  }
  pthread_mutex_unlock(&cache->mutex);
  if (!keep)
    free(block);
}

size_t kiln_block_cache_kept_bytes(kiln_block_cache *cache) {
  pthread_mutex_lock(&cache->mutex);
  size_t bytes = cache->kept_bytes;
  pthread_mutex_unlock(&cache->mutex);
  return bytes;
}

void kiln_block_cache_trim(kiln_block_cache *cache) {
  pthread_mutex_lock(&cache->mutex);
  for (size_t i = 0; i < cache->kept_count; ++i)
    free(cache->kept[i].block);
  cache->kept_count = 0;
  cache->kept_bytes = 0;
  pthread_mutex_unlock(&cache->mutex);
}

void kiln_block_cache_retain(kiln_block_cache *cache) {
  atomic_fetch_add_explicit(&cache->references, 1, memory_order_relaxed);
}

void kiln_block_cache_release(kiln_block_cache *cache) {
  if (atomic_fetch_sub_explicit(&cache->references, 1, memory_order_acq_rel) !=
      1)
    return;
  kiln_block_cache_trim(cache);
  free(cache->kept);
  pthread_mutex_destroy(&cache->mutex);
  free(cache);
}

void kiln_block_cache_close(kiln_block_cache *cache) {
  if (!cache)
    return;
  pthread_mutex_lock(&cache->mutex);
  cache->closed = true;
  pthread_mutex_unlock(&cache->mutex);
  kiln_block_cache_trim(cache);
  kiln_block_cache_release(cache);
}
