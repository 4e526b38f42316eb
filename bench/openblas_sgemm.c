/*===- openblas_sgemm.c - Time OpenBLAS's single-precision GEMM -----------===*
 *
 *   openblas-sgemm M N K [repetitions] [warmup]
 *
 * Times C = A * B (row-major, f32) with cblas_sgemm and prints one JSON
 * object: median, min and max milliseconds and GFLOP/s of the median.
 * Threads and kernel come from OpenBLAS's environment (OPENBLAS_NUM_THREADS,
 * OPENBLAS_CORETYPE), set by the benchmark driver.
 *
 *===----------------------------------------------------------------------===*/

#include "bench_timing.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: openblas-sgemm M N K [repetitions] [warmup]\n");
    return 1;
  }
  int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
  int repetitions = argc > 4 ? atoi(argv[4]) : 20;
  int warmup = argc > 5 ? atoi(argv[5]) : 3;
  if (m <= 0 || n <= 0 || k <= 0 || repetitions <= 0 || warmup < 0) {
    fprintf(stderr, "openblas-sgemm: sizes and repetitions must be positive\n");
    return 1;
  }
  float *a = aligned_alloc(64, ((size_t)m * k * 4 + 63) / 64 * 64);
  float *b = aligned_alloc(64, ((size_t)k * n * 4 + 63) / 64 * 64);
  float *c = aligned_alloc(64, ((size_t)m * n * 4 + 63) / 64 * 64);
  double *times = malloc(sizeof(double) * repetitions);
  if (!a || !b || !c || !times) {
    fprintf(stderr, "openblas-sgemm: out of memory\n");
    return 1;
  }
  srand(1);
  for (size_t i = 0; i < (size_t)m * k; ++i)
    a[i] = (float)rand() / RAND_MAX * 2 - 1;
  for (size_t i = 0; i < (size_t)k * n; ++i)
    b[i] = (float)rand() / RAND_MAX * 2 - 1;
  for (int call = 0; call < warmup + repetitions; ++call) {
    double start = bench_now_ms();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
                b, n, 0.0f, c, n);
    double end = bench_now_ms();
    if (call >= warmup)
      times[call - warmup] = end - start;
  }
  double median = bench_median(times, repetitions);
  double flops = 2.0 * m * n * k;
  printf("{\"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, "
         "\"gflops\": %.3f}\n",
         median, times[0], times[repetitions - 1], flops / (median * 1e6));
  free(a);
  free(b);
  free(c);
  free(times);
  return 0;
}
