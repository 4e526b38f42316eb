/*===- trace.c - Recording what calls, dispatches and threads did --------===*
 *
 * One event list per thread of the pool, written only by that thread while
 * a call runs and read between calls, so recording takes no lock. Each list
 * grows by doubling up to KILN_TRACE_MAX_EVENTS; events past that, or that
 * memory cannot be had for, are counted as dropped.
 *
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct trace_thread {
  kiln_trace_event *events;
  size_t count, capacity;
  size_t dropped;
} trace_thread;

struct kiln_trace {
  int threads;
  trace_thread *lists;
};

uint64_t kiln_now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

kiln_trace *kiln_trace_create(int threads) {
  kiln_trace *trace = calloc(1, sizeof(*trace));
  if (!trace)
    return NULL;
  trace->lists = calloc((size_t)threads, sizeof(trace_thread));
  if (!trace->lists) {
    free(trace);
    return NULL;
  }
  trace->threads = threads;
  return trace;
}

void kiln_trace_clear(kiln_trace *trace) {
  for (int i = 0; trace && i < trace->threads; ++i) {
    free(trace->lists[i].events);
    memset(&trace->lists[i], 0, sizeof(trace_thread));
  }
}

void kiln_trace_destroy(kiln_trace *trace) {
  if (!trace)
    return;
  kiln_trace_clear(trace);
  free(trace->lists);
  free(trace);
}

void kiln_trace_record(kiln_trace *trace, const kiln_trace_event *event) {
  if (event->thread < 0 || event->thread >= trace->threads)
    return;
  trace_thread *list = &trace->lists[event->thread];
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? 2 * list->capacity : 256;
    kiln_trace_event *grown =
        list->capacity < KILN_TRACE_MAX_EVENTS
            ? realloc(list->events, capacity * sizeof(kiln_trace_event))
            : NULL;
    if (!grown) {
      ++list->dropped;
      return;
    }
    list->events = grown;
    list->capacity = capacity;
  }
  list->events[list->count++] = *event;
}

size_t kiln_runtime_trace_event_count(const kiln_runtime *runtime) {
  size_t count = 0;
  for (int i = 0; runtime->trace && i < runtime->trace->threads; ++i)
    count += runtime->trace->lists[i].count;
  return count;
}

const kiln_trace_event *kiln_runtime_trace_event(const kiln_runtime *runtime,
                                                 size_t index) {
  for (int i = 0; runtime->trace && i < runtime->trace->threads; ++i) {
    const trace_thread *list = &runtime->trace->lists[i];
    if (index < list->count)
      return &list->events[index];
    index -= list->count;
  }
  return NULL;
}

size_t kiln_runtime_trace_dropped(const kiln_runtime *runtime) {
  size_t dropped = 0;
  for (int i = 0; runtime->trace && i < runtime->trace->threads; ++i)
    dropped += runtime->trace->lists[i].dropped;
  return dropped;
}

void kiln_runtime_reset_trace(kiln_runtime *runtime) {
  pthread_mutex_lock(&runtime->call_mutex);
  kiln_trace_clear(runtime->trace);
  pthread_mutex_unlock(&runtime->call_mutex);
}
