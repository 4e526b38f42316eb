/*===- ukernels_extension.c - The ukernels micro-kernel, at run time -----===*
 *
 * The runtime extension that modules compiled with --kiln-plugin=ukernels
 * --ukernels-mode=import call for their f32 matmuls, instead of carrying
 * the plugin's micro-kernel in every module: C[M x N] += A[M x K] * B[K x N],
 * rows `lda`, `ldb` and `ldc` floats apart, columns contiguous. The same
 * blocking as the MLIR micro-kernel of UkernelPasses.cpp: for each 32
 * columns, blocks of up to 256 rows of B copied into a contiguous panel,
 * each 6 x 32 tile of C kept in twelve 16-float accumulators over the block;
 * rows and columns past the last whole tile take a scalar loop. Compiled
 * once per x86-64 level (target_clones), the loader picks the one the CPU
 * runs.
 *
 *===----------------------------------------------------------------------===*/

#include "kiln_extension.h"

#include <string.h>

/* 16 floats: one AVX-512 register (two AVX2 ones). GCC keeps wider
 * vector types, and arrays of vectors, in memory. */
typedef float v16f __attribute__((vector_size(64), aligned(4)));

enum { kRows = 6, kColumns = 32, kPanelRows = 256 };

__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3",
                             "default"))) static void
matmul_f32(const float *a, int64_t lda, const float *b, int64_t ldb, float *c,
           int64_t ldc, int64_t m, int64_t n, int64_t k) {
  int64_t full_m = m - m % kRows, full_n = n - n % kColumns;
  float panel[kPanelRows * kColumns] __attribute__((aligned(64)));
  for (int64_t j = 0; j < full_n; j += kColumns) {
    for (int64_t kk = 0; kk < k; kk += kPanelRows) {
      int64_t kc = k - kk < kPanelRows ? k - kk : kPanelRows;
      for (int64_t p = 0; p < kc; ++p)
        memcpy(&panel[p * kColumns], &b[(kk + p) * ldb + j],
               kColumns * sizeof(float));
      for (int64_t i = 0; i < full_m; i += kRows) {
        /* Twelve named accumulators (two per row of the tile), not an
         * array: GCC keeps an array of vectors in memory, loading and
         * storing it at every step. */
        float *t = &c[i * ldc + j];
        const float *at = &a[i * lda + kk];
        v16f c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
#define KILN_LOAD(r)                                                           \
  do {                                                                         \
    memcpy(&c##r##0, t + r * ldc, sizeof(v16f));                               \
    memcpy(&c##r##1, t + r * ldc + 16, sizeof(v16f));                          \
  } while (0)
#define KILN_STORE(r)                                                          \
  do {                                                                         \
    memcpy(t + r * ldc, &c##r##0, sizeof(v16f));                               \
    memcpy(t + r * ldc + 16, &c##r##1, sizeof(v16f));                          \
  } while (0)
#define KILN_FMA(r)                                                            \
  do {                                                                         \
    float x = at[r * lda + p];                                                 \
    c##r##0 += x * b0;                                                         \
    c##r##1 += x * b1;                                                         \
  } while (0)
        KILN_LOAD(0);
        KILN_LOAD(1);
        KILN_LOAD(2);
        KILN_LOAD(3);
        KILN_LOAD(4);
        KILN_LOAD(5);
        for (int64_t p = 0; p < kc; ++p) {
          v16f b0, b1;
          memcpy(&b0, &panel[p * kColumns], sizeof(v16f));
          memcpy(&b1, &panel[p * kColumns + 16], sizeof(v16f));
          KILN_FMA(0);
          KILN_FMA(1);
          KILN_FMA(2);
          KILN_FMA(3);
          KILN_FMA(4);
          KILN_FMA(5);
        }
        KILN_STORE(0);
        KILN_STORE(1);
        KILN_STORE(2);
        KILN_STORE(3);
        KILN_STORE(4);
        KILN_STORE(5);
#undef KILN_LOAD
#undef KILN_STORE
#undef KILN_FMA
      }
    }
  }
  /* What the tiles left: the last rows of the tiled columns, then the last
   * columns of every row. */
  for (int64_t i = full_m; i < m; ++i)
    for (int64_t j = 0; j < full_n; ++j) {
      float sum = c[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = sum;
    }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = full_n; j < n; ++j) {
      float sum = c[i * ldc + j];
      for (int64_t p = 0; p < k; ++p)
        sum += a[i * lda + p] * b[p * ldb + j];
      c[i * ldc + j] = sum;
    }
}

static const kiln_extension_symbol kSymbols[] = {
    {"kiln_ukernels.matmul_f32", KILN_EXTENSION_KERNEL_FUNCTION,
     "!llvm.func<void(ptr,i64,ptr,i64,ptr,i64,i64,i64,i64)>",
     (void *)matmul_f32, NULL},
};

KILN_EXTENSION_EXPORT const kiln_extension *kiln_extension_get(void) {
  static const kiln_extension extension = {
      KILN_EXTENSION_ABI_VERSION, "kiln_ukernels",
      sizeof(kSymbols) / sizeof(kSymbols[0]), kSymbols};
  return &extension;
}
