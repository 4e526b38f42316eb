/*===- thread_pool.c - Running workgroups on all cores -------------------===*
 *
 * A fixed set of worker threads that, together with the thread that starts
 * a dispatch, run its workgroups. Each thread owns a contiguous range of
 * them (the caller the first) and takes from it first, then from the
 * others' ranges until none are left: a thread runs the same part of every
 * dispatch of a shape, so what it wrote in one call, or an earlier
 * dispatch wrote for the same rows, is in its own cache in the next (a
 * shared counter handed out workgroups in a different order every call,
 * and the depthwise 3x3 over 14x14x576 ran no faster on two threads than
 * on one).
 * Each of those threads owns a scratch buffer its workgroups write their
 * temporaries into; it grows to the largest a dispatch asked for and stays
 * allocated (and its pages mapped) until the pool is destroyed.
 *
 * Waking a sleeping worker takes tens of microseconds in a VM, as long as
 * a small dispatch. So a worker that finished a dispatch spins for a short
 * while (kSpinNanoseconds) watching for the next one before it sleeps, and
 * the thread that starts a dispatch waits only for the workers that joined
 * it: once it has run out of workgroups it closes the dispatch, and a
 * worker that comes later leaves it alone. Joining, leaving and closing
 * are atomics, never the mutex: a spinning worker that saw a dispatch
 * start while the caller still held the mutex slept on it, and a caller
 * that slept waiting for the workers paid a wake-up per dispatch; both
 * cost as much as a small dispatch. The mutex only guards sleeping:
 * workers waiting for a dispatch, and the caller waiting for the last
 * worker once it has spun as long as a worker does.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How long a worker watches for the next dispatch before it sleeps. */
enum { kSpinNanoseconds = 100 * 1000 };

/* One thread running workgroups: the caller (index 0) or a worker. */
typedef struct pool_thread {
  kiln_thread_pool *pool;
  pthread_t thread; /* unused for the caller */
  void *scratch;
  uint64_t scratch_bytes;
  /* Its range of the current dispatch's workgroups, [next, end): taken
   * by it, and by the others once theirs are done. On a cache line of its
   * own. */
  _Alignas(64) atomic_uint_fast64_t next;
  uint64_t end;
} pool_thread;

struct kiln_thread_pool {
  int size; /* threads running workgroups, the caller included */
  pool_thread *threads;

  /* Guards sleeping: `work_ready` for workers, `work_done` for the caller. */
  pthread_mutex_t mutex;
  pthread_cond_t work_ready;
  pthread_cond_t work_done;
  bool shutdown;

  /* On a cache line of their own, so that taking workgroups does not pull
   * them away from spinning threads. `generation` counts dispatches;
   * `closed` is the last one no worker may join any more; `running` counts
   * the workers in a dispatch (and, briefly, those finding it closed);
   * `sleepers` the workers waiting on `work_ready` (changed under `mutex`,
   * read without by the caller deciding whether to wake them). */
  _Alignas(64) atomic_uint_fast64_t generation;
  atomic_uint_fast64_t closed;
  atomic_int running;
  atomic_int sleepers;

  /* The current dispatch, and where its threads record their share when
   * it is traced (`trace` NULL when not). */
  kiln_kernel_fn kernel;
  uint64_t scratch_needed;
  const kiln_dispatch_state *state;
  kiln_trace *trace;
  const kiln_module *trace_module;
  uint32_t trace_dispatch;
};

/* Runs workgroups of the current dispatch until none are left: those of
 * thread `self`'s range, then of the ranges after it. Returns how many it
 * ran. */
static uint64_t run_some_workgroups(kiln_thread_pool *pool, int self,
                                    void *scratch) {
  const kiln_dispatch_state *state = pool->state;
  uint64_t gx = state->workgroup_count[0];
  uint64_t gy = state->workgroup_count[1];
  uint64_t ran = 0;
  for (int k = 0; k < pool->size; ++k) {
    pool_thread *owner = &pool->threads[(self + k) % pool->size];
    for (;;) {
      uint64_t index =
          atomic_fetch_add_explicit(&owner->next, 1, memory_order_relaxed);
      if (index >= owner->end)
        break;
      uint32_t x = (uint32_t)(index % gx);
      uint32_t y = (uint32_t)((index / gx) % gy);
      uint32_t z = (uint32_t)(index / (gx * gy));
      pool->kernel(state, x, y, z, scratch);
      ++ran;
    }
  }
  return ran;
}

/* run_some_workgroups, recorded in the trace when the dispatch is traced
 * (a thread that found no workgroup left records nothing). */
static void run_workgroups(kiln_thread_pool *pool, int self, void *scratch) {
  if (!pool->trace) {
    run_some_workgroups(pool, self, scratch);
    return;
  }
  kiln_trace_event event = {0};
  event.kind = KILN_TRACE_WORKGROUPS;
  event.thread = self;
  event.module = pool->trace_module;
  event.dispatch = pool->trace_dispatch;
  event.begin_ns = kiln_now_ns();
  event.workgroups = run_some_workgroups(pool, self, scratch);
  event.end_ns = kiln_now_ns();
  if (event.workgroups)
    kiln_trace_record(pool->trace, &event);
}

/* Pauses once in a spin that began at `start`; false once it has lasted
 * kSpinNanoseconds (looked at every 64 pauses: reading the clock costs
 * more than a pause). */
static bool keep_spinning(unsigned *pauses, uint64_t start) {
  __builtin_ia32_pause();
  return ++*pauses % 64 != 0 || kiln_now_ns() - start < kSpinNanoseconds;
}

/* Returns when a dispatch after `seen` started, or after kSpinNanoseconds. */
static void spin_for_work(kiln_thread_pool *pool, uint64_t seen) {
  uint64_t start = kiln_now_ns();
  unsigned pauses = 0;
  while (atomic_load_explicit(&pool->generation, memory_order_relaxed) ==
             seen &&
         keep_spinning(&pauses, start)) {
  }
}

/* Returns when no worker is in the dispatch, or after kSpinNanoseconds. */
static void spin_for_workers(kiln_thread_pool *pool) {
  uint64_t start = kiln_now_ns();
  unsigned pauses = 0;
  while (atomic_load(&pool->running) != 0 && keep_spinning(&pauses, start)) {
  }
}

/* A worker is out of the dispatch; the last one out wakes a caller that
 * sleeps waiting for it. */
static void leave_dispatch(kiln_thread_pool *pool) {
  if (atomic_fetch_sub(&pool->running, 1) != 1)
    return;
  pthread_mutex_lock(&pool->mutex);
  pthread_cond_signal(&pool->work_done);
  pthread_mutex_unlock(&pool->mutex);
}

static void *worker_main(void *arg) {
  pool_thread *self = arg;
  kiln_thread_pool *pool = self->pool;
  uint64_t seen = 0;
  for (;;) {
    spin_for_work(pool, seen);
    if (atomic_load(&pool->generation) == seen) {
      pthread_mutex_lock(&pool->mutex);
      atomic_fetch_add(&pool->sleepers, 1);
      while (!pool->shutdown && atomic_load(&pool->generation) == seen)
        pthread_cond_wait(&pool->work_ready, &pool->mutex);
      atomic_fetch_sub(&pool->sleepers, 1);
      bool shutdown = pool->shutdown;
      pthread_mutex_unlock(&pool->mutex);
      if (shutdown)
        break;
    }
    seen = atomic_load(&pool->generation);
    /* Announce, then look: either the caller sees this worker in
     * `running` when it closes the dispatch and waits for it, or this
     * worker sees the dispatch closed (perhaps a later one started: its
     * state was not published to this worker) and leaves it alone. */
    atomic_fetch_add(&pool->running, 1);
    if (atomic_load(&pool->closed) < seen)
      run_workgroups(pool, (int)(self - pool->threads),
                     pool->scratch_needed ? self->scratch : NULL);
    leave_dispatch(pool);
  }
  return NULL;
}

kiln_error *kiln_thread_pool_create(int threads, kiln_thread_pool **out) {
  if (threads < 1)
    return kiln_make_error("a thread pool needs at least one thread, got %d",
                           threads);
  /* Aligned as its cache-line fields ask (sizeof is a multiple of it). */
  kiln_thread_pool *pool =
      aligned_alloc(_Alignof(kiln_thread_pool), sizeof(kiln_thread_pool));
  if (!pool)
    return kiln_make_error("out of memory creating the thread pool");
  memset(pool, 0, sizeof(*pool));
  pool->size = threads;
  pthread_mutex_init(&pool->mutex, NULL);
  pthread_cond_init(&pool->work_ready, NULL);
  pthread_cond_init(&pool->work_done, NULL);
  atomic_init(&pool->generation, 0);
  atomic_init(&pool->closed, 0);
  atomic_init(&pool->running, 0);
  atomic_init(&pool->sleepers, 0);
  /* Aligned for the threads' cache-line ranges. */
  pool->threads = aligned_alloc(_Alignof(pool_thread),
                                (size_t)threads * sizeof(pool_thread));
  if (!pool->threads) {
    pool->size = 1;
    kiln_thread_pool_destroy(pool);
    return kiln_make_error("out of memory creating the thread pool");
  }
  memset(pool->threads, 0, (size_t)threads * sizeof(pool_thread));
  for (int i = 0; i < threads; ++i) {
    pool->threads[i].pool = pool;
    atomic_init(&pool->threads[i].next, 0);
  }
  for (int i = 0; i + 1 < threads; ++i) {
    pool_thread *worker = &pool->threads[i + 1];
    if (pthread_create(&worker->thread, NULL, worker_main, worker) != 0) {
      pool->size = i + 1; /* the workers started so far, plus the caller */
      kiln_thread_pool_destroy(pool);
      return kiln_make_error("could not start worker thread %d of %d", i + 1,
                             threads - 1);
    }
  }
  *out = pool;
  return NULL;
}

void kiln_thread_pool_destroy(kiln_thread_pool *pool) {
  if (!pool)
    return;
  pthread_mutex_lock(&pool->mutex);
  pool->shutdown = true;
  pthread_cond_broadcast(&pool->work_ready);
  pthread_mutex_unlock(&pool->mutex);
  for (int i = 1; pool->threads && i < pool->size; ++i)
    pthread_join(pool->threads[i].thread, NULL);
  pthread_cond_destroy(&pool->work_done);
  pthread_cond_destroy(&pool->work_ready);
  pthread_mutex_destroy(&pool->mutex);
  for (int i = 0; pool->threads && i < pool->size; ++i)
    free(pool->threads[i].scratch);
  free(pool->threads);
  free(pool);
}

int kiln_thread_pool_size(const kiln_thread_pool *pool) { return pool->size; }

/* Gives every thread at least `bytes` of scratch; false when memory ran
 * out (threads keep what they had). */
static bool reserve_scratch(kiln_thread_pool *pool, uint64_t bytes) {
  /* Whole cache lines, so that no two threads share one. */
  uint64_t rounded;
  if (__builtin_add_overflow(bytes, 63, &rounded) || rounded > SIZE_MAX)
    return false;
  rounded &= ~(uint64_t)63;
  for (int i = 0; i < pool->size; ++i) {
    pool_thread *thread = &pool->threads[i];
    if (thread->scratch_bytes >= rounded)
      continue;
    void *scratch = aligned_alloc(64, (size_t)rounded);
    if (!scratch)
      return false;
    free(thread->scratch);
    thread->scratch = scratch;
    thread->scratch_bytes = rounded;
  }
  return true;
}

bool kiln_thread_pool_run(kiln_thread_pool *pool, kiln_kernel_fn kernel,
                          const kiln_dispatch_state *state,
                          uint64_t scratch_bytes, kiln_trace *trace,
                          const kiln_module *module, uint32_t dispatch) {
  uint64_t total = (uint64_t)state->workgroup_count[0] *
                   state->workgroup_count[1] * state->workgroup_count[2];
  if (total == 0)
    return true;
  if (scratch_bytes && !reserve_scratch(pool, scratch_bytes))
    return false;
  pool->kernel = kernel;
  pool->state = state;
  pool->scratch_needed = scratch_bytes;
  pool->trace = trace;
  pool->trace_module = module;
  pool->trace_dispatch = dispatch;
  /* Published to the workers by the store of `generation` below. */
  uint64_t share = total / (uint64_t)pool->size;
  uint64_t extra = total % (uint64_t)pool->size;
  uint64_t begin = 0;
  for (int i = 0; i < pool->size; ++i) {
    pool_thread *thread = &pool->threads[i];
    atomic_store_explicit(&thread->next, begin, memory_order_relaxed);
    begin += share + ((uint64_t)i < extra);
    thread->end = begin;
  }
  void *scratch = scratch_bytes ? pool->threads[0].scratch : NULL;
  if (pool->size == 1 || total == 1) {
    run_workgroups(pool, 0, scratch);
    return true;
  }

  /* Publishes the dispatch to spinning workers (the stores above happen
   * before it), then wakes sleeping ones. A worker about to sleep counts
   * itself in `sleepers` and checks `generation` after, under the mutex:
   * either it sees this dispatch or this sees it and wakes it. */
  uint64_t generation = atomic_load(&pool->generation) + 1;
  atomic_store(&pool->generation, generation);
  if (atomic_load(&pool->sleepers) != 0) {
    pthread_mutex_lock(&pool->mutex);
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->mutex);
  }

  run_workgroups(pool, 0, scratch);

  /* No worker joins from now on; those that did must be done with this
   * dispatch before its state dies. Every workgroup has started, so they
   * are about done: watch for them before sleeping. */
  atomic_store(&pool->closed, generation);
  spin_for_workers(pool);
  if (atomic_load(&pool->running) != 0) {
    pthread_mutex_lock(&pool->mutex);
    while (atomic_load(&pool->running) != 0)
      pthread_cond_wait(&pool->work_done, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
  }
  return true;
}
