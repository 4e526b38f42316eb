/*===- bench_timing.h - Timing helpers of the reference programs ----------===*
 *
 * The clock and the median the C reference programs (openblas-sgemm,
 * onednn-conv) time with, so that they measure as kiln-benchmark does.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_BENCH_TIMING_H
#define KILN_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* Milliseconds on the monotonic clock. */
static inline double bench_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static inline int bench_compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Sorts `times` and returns their median. */
static inline double bench_median(double *times, long count) {
  qsort(times, count, sizeof(double), bench_compare_doubles);
  return count % 2 ? times[count / 2]
                   : (times[count / 2 - 1] + times[count / 2]) / 2;
}

#endif /* KILN_BENCH_TIMING_H */
