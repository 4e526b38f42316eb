/*===- openblas_sgemm.c - Time OpenBLAS's single-precision GEMM -----------===*
 *
 *   openblas-sgemm M N K [repetitions] [warmup] [nn|nt] [batch]
 *
 * Times C = A * B (row-major, f32; `nt`: B given as N x K and transposed)
 * with cblas_sgemm, `batch` independent products per call (one
 * cblas_sgemm each, as OpenBLAS has no batched GEMM), and prints one JSON
 * object: median, min and max milliseconds and GFLOP/s of the median.
 * Threads and kernel come from OpenBLAS's environment (OPENBLAS_NUM_THREADS,
 * OPENBLAS_CORETYPE), set by the benchmark driver.
 *
 *===----------------------------------------------------------------------===*/

#include "bench_timing.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: openblas-sgemm M N K [repetitions] [warmup] "
                    "[nn|nt] [batch]\n");
    return 1;
  }
  int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]);
  int repetitions = argc > 4 ? atoi(argv[4]) : 20;
  int warmup = argc > 5 ? atoi(argv[5]) : 3;
  const char *layout = argc > 6 ? argv[6] : "nn";
  int batch = argc > 7 ? atoi(argv[7]) : 1;
  if (m <= 0 || n <= 0 || k <= 0 || repetitions <= 0 || warmup < 0 ||
      batch <= 0) {
    fprintf(stderr, "openblas-sgemm: sizes, repetitions and batch must be "
                    "positive\n");
    return 1;
  }
  int transpose_b = strcmp(layout, "nt") == 0;
  if (!transpose_b && strcmp(layout, "nn") != 0) {
    fprintf(stderr, "openblas-sgemm: layout must be nn or nt, got %s\n",
            layout);
    return 1;
  }
  size_t a_size = (size_t)m * k, b_size = (size_t)k * n, c_size = (size_t)m * n;
  float *a = aligned_alloc(64, (a_size * batch * 4 + 63) / 64 * 64);
  float *b = aligned_alloc(64, (b_size * batch * 4 + 63) / 64 * 64);
  float *c = aligned_alloc(64, (c_size * batch * 4 + 63) / 64 * 64);
  double *times = malloc(sizeof(double) * repetitions);
  if (!a || !b || !c || !times) {
    fprintf(stderr, "openblas-sgemm: out of memory\n");
    return 1;
  }
  srand(1);
  for (size_t i = 0; i < a_size * batch; ++i)
    a[i] = (float)rand() / RAND_MAX * 2 - 1;
  for (size_t i = 0; i < b_size * batch; ++i)
    b[i] = (float)rand() / RAND_MAX * 2 - 1;
  for (int call = 0; call < warmup + repetitions; ++call) {
    double start = bench_now_ms();
    for (int i = 0; i < batch; ++i)
      cblas_sgemm(CblasRowMajor, CblasNoTrans,
                  transpose_b ? CblasTrans : CblasNoTrans, m, n, k, 1.0f,
                  a + i * a_size, k, b + i * b_size, transpose_b ? k : n, 0.0f,
                  c + i * c_size, n);
    double end = bench_now_ms();
    if (call >= warmup)
      times[call - warmup] = end - start;
  }
  double median = bench_median(times, repetitions);
  double flops = 2.0 * m * n * k * batch;
  printf("{\"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f, "
         "\"gflops\": %.3f}\n",
         median, times[0], times[repetitions - 1], flops / (median * 1e6));
  free(a);
  free(b);
  free(c);
  free(times);
  return 0;
}
